import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { GoldenError } from '../errors/goldenError.ts';
import { compactJson } from '../compare/jsonText.ts';
import { parseArray, parseIo, readGolden, responseBody } from './layouts.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-layouts-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const REQ = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
const RES = '{"jsonrpc":"2.0","id":1,"result":"0x1"}';

describe('.io', () => {
  test('comments and blank lines pass; lines are trimmed; several exchanges are numbered', () => {
    const text = `// a comment\n\n>> ${REQ}\r\n<< ${RES}  \n>>${REQ}\n<<${RES}\n`;
    expect(parseIo(text, 'f.io', 'dir/f')).toEqual([
      { name: 'dir/f#1', file: 'f.io', layout: 'io', request: REQ, response: RES },
      { name: 'dir/f#2', file: 'f.io', layout: 'io', request: REQ, response: RES },
    ]);
  });

  test('a request without a response line expects no answer', () => {
    expect(parseIo(`>> ${REQ}\n>> ${REQ}\n<< ${RES}\n`, 'f.io', 'f').map((e) => e.response)).toEqual([undefined, RES]);
  });

  test('stray lines are errors naming the line', () => {
    expect(() => parseIo(`<< ${RES}\n`, 'f.io', 'f')).toThrow('f.io:1: a "<<" line without a ">>" line before it');
    expect(() => parseIo(`>> ${REQ}\nhello\n`, 'f.io', 'f')).toThrow('f.io:2:');
    expect(() => parseIo('// only a comment\n', 'f.io', 'f')).toThrow(GoldenError);
  });
});

describe('JSON array of {request, response}', () => {
  const pretty = `[\n  {\n    "request": ${JSON.stringify(JSON.parse(REQ), null, 2)},\n    "response": {\n      "id": 1,\n      "jsonrpc": "2.0",\n      "result": "0x1"\n    },\n    "test": {"description": "x"}\n  }\n]`;

  test('request and response compacted with escapes and order kept', () => {
    expect(parseArray(pretty, 'a.json', 'a', true)).toEqual({
      exchanges: [{ name: 'a', file: 'a.json', layout: 'array', request: REQ, response: '{"id":1,"jsonrpc":"2.0","result":"0x1"}' }],
      skipped: [],
    });
    expect(compactJson('{ "a" : "x \\" y\\\\" , "b":[ 1 ,2 ] }')).toBe('{"a":"x \\" y\\\\","b":[1,2]}');
  });

  test('a response with neither result nor error is skipped, not failed', () => {
    const text = `[{"request":${REQ},"response":{"id":1,"jsonrpc":"2.0"},"metadata":{"latest":true}},{"request":${REQ},"response":${RES}}]`;
    const set = parseArray(text, 'a.json', 'a', true)!;
    expect(set.exchanges.map((e) => e.name)).toEqual(['a#2']);
    expect(set.skipped).toEqual([{ name: 'a#1', file: 'a.json', request: REQ, reason: 'no recorded result or error' }]);
  });

  test('other JSON: passed over in a walk, an error when named', () => {
    expect(parseArray('[1,2]', 'a.json', 'a', false)).toBeUndefined();
    expect(() => parseArray('[1,2]', 'a.json', 'a', true)).toThrow('a.json: not a JSON array');
    expect(() => parseArray('[{"request":', 'a.json', 'a', true)).toThrow('a.json: not valid JSON');
  });
});

describe('readGolden', () => {
  const dir = join(work, 'walk');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  writeFileSync(join(dir, 'sub/b.request.json'), REQ);
  writeFileSync(join(dir, 'sub/b.response.json'), `${RES}\n`);
  writeFileSync(join(dir, 'sub/note.request.json'), REQ.replace('"id":1,', ''));
  writeFileSync(join(dir, 'sub/note.response.json'), '');
  writeFileSync(join(dir, 'a.io'), `>> ${REQ}\n<< ${RES}\n`);
  writeFileSync(join(dir, 'c.json'), `[{"request":${REQ},"response":${RES}}]`);
  writeFileSync(join(dir, 'fixture.json'), '{"genesis":{}}');
  writeFileSync(join(dir, 'README.md'), '# not a golden');
  writeFileSync(join(dir, 'sub/d.request.json'), REQ);
  writeFileSync(join(dir, 'sub/d.response.json.gz'), gzipSync(RES));

  test('a directory: every layout, sorted, names relative to it; other files passed over', () => {
    const set = readGolden(dir);
    expect(set.exchanges.map((e) => [e.name, e.response])).toEqual([
      ['a', RES],
      ['c', RES],
      ['sub/b', RES],
      ['sub/d', RES],
      ['sub/note', undefined],
    ]);
    expect(set.exchanges.find((e) => e.name === 'sub/d')!.layout).toBe('packed');
  });

  test('symbolic links count as what they point to', () => {
    const linked = join(work, 'linked');
    mkdirSync(linked);
    symlinkSync(join(dir, 'sub'), join(linked, 'sub'));
    symlinkSync(join(dir, 'a.io'), join(linked, 'a.io'));
    symlinkSync(join(work, 'nowhere'), join(linked, 'dangling.io'));
    expect(readGolden(linked).exchanges.map((e) => e.name)).toEqual(['a', 'sub/b', 'sub/d', 'sub/note']);
  });

  test('a file named on the command line', () => {
    expect(readGolden(join(dir, 'sub/b.response.json')).exchanges.map((e) => e.name)).toEqual(['b']);
    expect(readGolden(join(dir, 'sub/d.response.json.gz')).exchanges.map((e) => [e.name, e.response])).toEqual([['d', RES]]);
    expect(() => readGolden(join(dir, 'README.md'))).toThrow('not a golden file');
  });

  test('unreadable goldens are errors naming the path', () => {
    expect(() => readGolden(join(work, 'nope'))).toThrow(`cannot read golden ${join(work, 'nope')}: ENOENT`);
    const orphan = join(work, 'orphan');
    mkdirSync(orphan);
    writeFileSync(join(orphan, 'x.request.json'), REQ);
    expect(() => readGolden(orphan)).toThrow('no x.response.json beside it');
    const empty = join(work, 'empty');
    mkdirSync(empty);
    expect(() => readGolden(empty)).toThrow('no recorded exchanges found');
  });

  test('a final newline is not part of a response body', () => {
    expect([responseBody(`${RES}\r\n`), responseBody(`${RES}\n\n`), responseBody('\n')]).toEqual([RES, `${RES}\n`, undefined]);
  });
});
