import { expect, test } from 'bun:test';
import { parseJsonPath } from '../compare/ignore.ts';
import type { PathStep } from '../compare/types.ts';
import { valueLine as lineAt } from './valueLine.ts';

/** The line of the value at a JSON path written as `--ignore` takes it. */
const valueLine = (text: string, path: string): number => lineAt(text, path === '$' ? [] : (parseJsonPath(path) as PathStep[]));

const PRETTY = `{
  "jsonrpc": "2.0",
  "id": 1,
  "result": [
    {
      "txHash": "0xab",
      "result": {
        "calls": [
          { "gasUsed": "0x1" },
          {
            "gasUsed": "0x2",
            "weird \\"key\\"]": [1, "a,]}", 3]
          }
        ]
      }
    }
  ]
}`;

test('the line of the value at a path, through objects, arrays and strings holding brackets and commas', () => {
  expect(valueLine(PRETTY, '$')).toBe(1);
  expect(valueLine(PRETTY, '$.id')).toBe(3);
  expect(valueLine(PRETTY, '$.result[0].txHash')).toBe(6);
  expect(valueLine(PRETTY, '$.result[0].result.calls[0].gasUsed')).toBe(9);
  expect(valueLine(PRETTY, '$.result[0].result.calls[1].gasUsed')).toBe(11);
  expect(valueLine(PRETTY, '$.result[0].result.calls[1]["weird \\"key\\"]"][2]')).toBe(12);
});

test('a member the recording lacks: the line of the deepest value on its path', () => {
  expect(valueLine(PRETTY, '$.result[0].result.calls[1].output')).toBe(10);
  expect(valueLine(PRETTY, '$.result[3]')).toBe(4);
  expect(valueLine('{"a":1}', '$.a.b')).toBe(1);
});
