import { describe, expect, test } from 'bun:test';
import { instructionIndex, LineIndex, parseSourceMap, SourceMapError } from './sourceMap.ts';

describe('parseSourceMap', () => {
  test('empty fields repeat the entry before; -1 is no source', () => {
    expect(parseSourceMap('1:2:1;:9;2:1:2:i;;-1:-1:-1:-:1')).toEqual([
      { start: 1, length: 2, file: 1, jump: '-', modifierDepth: 0 },
      { start: 1, length: 9, file: 1, jump: '-', modifierDepth: 0 },
      { start: 2, length: 1, file: 2, jump: 'i', modifierDepth: 0 },
      { start: 2, length: 1, file: 2, jump: 'i', modifierDepth: 0 },
      { start: -1, length: -1, file: -1, jump: '-', modifierDepth: 1 },
    ]);
  });

  test('a malformed entry is a SourceMapError naming it', () => {
    expect(() => parseSourceMap('1:2:1;x:y')).toThrow(new SourceMapError('source map entry 1: "x" is not a number'));
    expect(() => parseSourceMap('1:2:1:q')).toThrow(SourceMapError);
    expect(() => parseSourceMap('1:2:3:-:0:9')).toThrow(SourceMapError);
  });
});

test('instructionIndex skips PUSH data (PUSH0 has none)', () => {
  // PUSH1 0x80, PUSH0, PUSH2 0x0102, JUMPDEST
  const index = instructionIndex(Uint8Array.from([0x60, 0x80, 0x5f, 0x61, 0x01, 0x02, 0x5b]));
  expect([...index]).toEqual([0, -1, 1, 2, -1, -1, 3]);
});

test('LineIndex: lines from 1, columns in characters though offsets are UTF-8 bytes', () => {
  const lines = new LineIndex('a\n// →→ x\nlast');
  expect(lines.lines).toBe(3);
  expect(lines.at(0)).toEqual({ line: 1, column: 1 });
  // "// →→ " is 3 + 2·3 + 1 = 10 bytes, 6 characters
  expect(lines.at(2 + 10)).toEqual({ line: 2, column: 7 });
  expect(lines.slice(2 + 10, 1)).toBe('x');
  expect(lines.at(Buffer.byteLength('a\n// →→ x\n'))).toEqual({ line: 3, column: 1 });
  expect(lines.holds(0, Buffer.byteLength('a\n// →→ x\nlast'))).toBe(true);
  expect(lines.holds(1, Buffer.byteLength('a\n// →→ x\nlast'))).toBe(false);
});
