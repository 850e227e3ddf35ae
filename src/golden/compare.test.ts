import { describe, expect, test } from 'bun:test';
import { byteContext, compare } from './compare.ts';

const OURS = '{"jsonrpc":"2.0","id":1,"result":[{"action":{"from":"0xaa","callType":"call","gas":"0x0"},"subtraces":0,"traceAddress":[]}]}';

describe('bytes', () => {
  test('identical bytes pass', () => expect(compare(OURS, OURS, 'bytes')).toBeUndefined());

  test('a changed value: its path, both values, the bytes around it', () => {
    const d = compare(OURS.replace('"gas":"0x0"', '"gas":"0x1"'), OURS, 'bytes')!;
    expect(d.path).toBe('$.result[0].action.gas');
    expect([d.expected, d.got]).toEqual(['"0x1"', '"0x0"']);
    expect(d.context!.offset).toBe(OURS.indexOf('"gas":"0x0"') + 9);
    expect(d.context!.expected).toContain('"gas":"0x1"');
    expect(d.context!.got).toContain('"gas":"0x0"');
  });

  test('key order is part of the contract', () => {
    const sorted = OURS.replace('"from":"0xaa","callType":"call"', '"callType":"call","from":"0xaa"');
    const d = compare(sorted, OURS, 'bytes')!;
    expect(d.path).toBe('$.result[0].action.callType');
    expect(d.note).toBe('key 1 of the object is "callType" in the recording, "from" in ours');
  });

  test('escapes and number spellings count; whitespace alone is named', () => {
    expect(compare('{"a":"\\u003c"}', '{"a":"<"}', 'bytes')!.path).toBe('$.a');
    expect(compare('{"a":1.0}', '{"a":1}', 'bytes')!.path).toBe('$.a');
    expect(compare('{"a": 1}', '{"a":1}', 'bytes')!.note).toContain('whitespace');
  });

  test('missing and extra members and items', () => {
    expect(compare('{"a":1,"b":2}', '{"a":1}', 'bytes')).toMatchObject({ path: '$.b', expected: '2', got: 'missing' });
    expect(compare('[1]', '[1,{"x":2}]', 'bytes')).toMatchObject({ path: '$[1]', expected: 'missing', got: '{"x":2}', note: 'expected 1 items, got 2' });
    expect(compare('{"a b":1}', '{"a b":2}', 'bytes')!.path).toBe('$["a b"]');
  });

  test('no answer on either side; text that is not JSON', () => {
    expect(compare(undefined, undefined, 'bytes')).toBeUndefined();
    expect(compare(undefined, OURS, 'bytes')).toMatchObject({ path: '$', expected: 'no answer' });
    expect(compare(OURS, undefined, 'bytes')).toMatchObject({ path: '$', got: 'no answer' });
    expect(compare('{"a":', '{"a":1}', 'bytes')!.note).toBe('the recording is not one JSON value');
  });

  test('long values are cut', () => {
    const long = `"0x${'ab'.repeat(100)}"`;
    const d = compare(`[${long}]`, '[1]', 'bytes')!;
    expect(d.expected.length).toBe(80);
    expect(d.expected.endsWith('…')).toBe(true);
  });
});

describe('semantic', () => {
  const pretty = JSON.stringify(JSON.parse(OURS), Object.keys(JSON.parse(OURS)).concat(['action', 'from', 'callType', 'gas', 'subtraces', 'traceAddress']).sort(), 2);

  test('pretty-printed and key-sorted recordings pass', () => {
    expect(compare(pretty, OURS, 'bytes')).toBeDefined();
    expect(compare(pretty, OURS, 'semantic')).toBeUndefined();
  });

  test('a changed value still fails, with the path and no byte context', () => {
    const d = compare(pretty.replace('"0x0"', '"0x2"'), OURS, 'semantic')!;
    expect(d).toEqual({ path: '$.result[0].action.gas', expected: '"0x2"', got: '"0x0"' });
  });

  test('strings by value, numbers by value, types apart', () => {
    expect(compare('{"a":"\\u003c","n":1.0}', '{"n":1,"a":"<"}', 'semantic')).toBeUndefined();
    expect(compare('{"n":1}', '{"n":"1"}', 'semantic')!.path).toBe('$.n');
    expect(compare('{"n":18446744073709551617}', '{"n":18446744073709551616}', 'semantic')!.path).toBe('$.n');
    expect(compare('{"a":1}', '{"a":1,"b":null}', 'semantic')).toMatchObject({ path: '$.b', expected: 'missing', got: 'null' });
  });
});

test('byteContext marks cut ends and shows newlines', () => {
  const c = byteContext(`${'x'.repeat(50)}a\nb`, `${'x'.repeat(50)}c`);
  expect(c).toEqual({ offset: 50, expected: `…${'x'.repeat(24)}a\\nb`, got: `…${'x'.repeat(24)}c` });
  expect(byteContext('é1', 'é2').offset).toBe(2);
});
