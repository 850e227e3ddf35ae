import { describe, expect, test } from 'bun:test';
import { compareAnswers } from './answers.ts';
import { parseIgnores } from './ignore.ts';

const OURS = '{"jsonrpc":"2.0","id":1,"result":[{"action":{"from":"0xaa","callType":"call","gas":"0x0"},"subtraces":0,"traceAddress":[]}]}';
const REQ = '{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x1"]}';
const bytes = (expected: string | undefined, got: string | undefined, request = REQ) => compareAnswers(request, expected, got, { mode: 'bytes' });
const semantic = (expected: string, got: string) => compareAnswers(REQ, expected, got, { mode: 'semantic' });

describe('bytes', () => {
  test('identical bytes pass', () => expect(bytes(OURS, OURS)).toEqual([]));

  test('every difference, in document order, values whole', () => {
    const expected = OURS.replace('"from":"0xaa"', '"from":"0xbb"').replace('"gas":"0x0"', '"gas":"0x1"').replace('"subtraces":0', '"subtraces":2');
    expect(bytes(expected, OURS).map((d) => [d.path, d.expected, d.got])).toEqual([
      ['$.result[0].action.from', '"0xbb"', '"0xaa"'],
      ['$.result[0].action.gas', '"0x1"', '"0x0"'],
      ['$.result[0].subtraces', '2', '0'],
    ]);
  });

  test('key order is named once per object, and values are still compared by name', () => {
    const sorted = OURS.replace('"from":"0xaa","callType":"call","gas":"0x0"', '"callType":"call","from":"0xab","gas":"0x0"');
    const found = bytes(sorted, OURS);
    expect(found.map((d) => [d.path, d.field, d.expected, d.got])).toEqual([
      ['$.result[0].action', 'action (key order)', '["callType","from","gas"]', '["from","callType","gas"]'],
      ['$.result[0].action.from', 'action.from', '"0xab"', '"0xaa"'],
    ]);
  });

  test('escapes and number spellings count; whitespace alone is named', () => {
    expect(bytes('{"a":"\\u003c"}', '{"a":"<"}')).toMatchObject([{ path: '$.a', note: 'the same string, written differently' }]);
    expect(bytes('{"a":1.0}', '{"a":1}')).toMatchObject([{ path: '$.a', note: 'the same number, written differently' }]);
    expect(bytes('{"a": 1}', '{"a":1}')[0]!.note).toContain('whitespace');
  });

  test('a pretty golden is read token for token: whitespace between tokens is free, nothing else', () => {
    const pretty = '{\n  "a": "x y",\n  "b": [\n    1,\n    2.0\n  ]\n}';
    expect(compareAnswers(REQ, pretty, '{"a":"x y","b":[1,2.0]}', { mode: 'bytes', tokens: true })).toEqual([]);
    expect(compareAnswers(REQ, pretty, '{"a":"x y","b":[1,2]}', { mode: 'bytes', tokens: true })).toMatchObject([{ path: '$.b[1]', expected: '2.0', got: '2' }]);
  });

  test('missing and extra members and items, each one', () => {
    expect(bytes('{"a":1,"b":2,"c":3}', '{"a":1,"d":4}').map((d) => [d.path, d.expected, d.got])).toEqual([
      ['$.b', '2', 'missing'],
      ['$.c', '3', 'missing'],
      ['$.d', 'missing', '4'],
    ]);
    expect(bytes('[1]', '[1,{"x":2},3]').map((d) => [d.path, d.expected, d.got, d.note])).toEqual([
      ['$[1]', 'missing', '{"x":2}', 'the recording has 1 items, ours 3'],
      ['$[2]', 'missing', '3', 'the recording has 1 items, ours 3'],
    ]);
    expect(bytes('{"a b":1}', '{"a b":2}')[0]!.path).toBe('$["a b"]');
  });

  test('no answer on either side; text that is not JSON', () => {
    expect(bytes(undefined, undefined)).toEqual([]);
    expect(bytes(undefined, OURS)).toMatchObject([{ path: '$', expected: 'no answer', got: OURS }]);
    expect(bytes(OURS, undefined)).toMatchObject([{ path: '$', got: 'no answer' }]);
    expect(bytes('{"a":', '{"a":1}')[0]!.note).toBe('the recording is not one JSON value');
  });

  test('long hex is shown as the 32-byte words that differ, with offsets; calldata keeps its selector apart', () => {
    const word = (d: string): string => d.repeat(64);
    const data = (w2: string): string => `{"data":"0x${word('1')}${w2}${word('3')}"}`;
    const [d] = bytes(data(word('2')), data(word('4')));
    expect(d!.expected).toBe(`"0x${word('1')}${word('2')}${word('3')}"`);
    expect(d!.words).toEqual([{ offset: 32, expected: `0x${word('2')}`, got: `0x${word('4')}` }]);
    const [shorter] = bytes(data(word('2')), `{"data":"0x${word('1')}${word('2')}"}`);
    expect(shorter!.words).toEqual([{ offset: 64, expected: `0x${word('3')}`, got: 'missing' }]);
    const [input] = bytes(`{"input":"0xa9059cbb${word('0')}"}`, `{"input":"0x23b872dd${word('0')}"}`);
    expect(input!.words).toEqual([{ offset: 0, expected: '0xa9059cbb', got: '0x23b872dd' }]);
    expect(bytes('{"h":"0x01"}', '{"h":"0x02"}')[0]!.words).toBeUndefined();
  });
});

describe('--ignore', () => {
  const ignore = (rules: string[], expected: string, got: string) => compareAnswers(REQ, expected, got, { mode: 'bytes', ignore: parseIgnores(rules) });

  test('a name drops that member at any depth, on both sides', () => {
    expect(ignore(['blockHash'], '{"blockHash":"0x1","a":[{"blockHash":"0x2","b":1}]}', '{"blockHash":"0x3","a":[{"b":1}]}')).toEqual([]);
    expect(ignore(['blockHash'], '{"blockHash":"0x1","b":1}', '{"b":2}')).toMatchObject([{ path: '$.b' }]);
  });

  test('a path drops one member or item; [*] and .* match any', () => {
    expect(ignore(['$.result[*].x'], '{"result":[{"x":1,"y":1},{"x":2,"y":2}]}', '{"result":[{"x":9,"y":1},{"x":8,"y":2}]}')).toEqual([]);
    expect(ignore(['$.result[0].x'], '{"result":[{"x":1},{"x":2}]}', '{"result":[{"x":9},{"x":8}]}')).toMatchObject([{ path: '$.result[1].x' }]);
    expect(ignore(['$.post.*.balance'], '{"post":{"0xa":{"balance":"0x1"}}}', '{"post":{"0xa":{"balance":"0x2"}}}')).toEqual([]);
    expect(ignore(['$["a b"]'], '{"a b":1}', '{"a b":2}')).toEqual([]);
  });

  test('anything else is refused with the rule named', () => {
    for (const bad of ['', 'a.b', '$', '$.', '$[x]', 'block hash', '$["a"', '$.a[-1]']) {
      expect(() => parseIgnores([bad])).toThrow(JSON.stringify(bad));
    }
  });
});

describe('semantic', () => {
  const pretty = JSON.stringify(JSON.parse(OURS), Object.keys(JSON.parse(OURS)).concat(['action', 'from', 'callType', 'gas', 'subtraces', 'traceAddress']).sort(), 2);

  test('pretty-printed and key-sorted recordings pass', () => {
    expect(bytes(pretty, OURS)).not.toEqual([]);
    expect(semantic(pretty, OURS)).toEqual([]);
  });

  test('a changed value still fails, with its path', () => {
    expect(semantic(pretty.replace('"0x0"', '"0x2"'), OURS)).toMatchObject([{ path: '$.result[0].action.gas', expected: '"0x2"', got: '"0x0"' }]);
  });

  test('strings by value, numbers by value, types apart', () => {
    expect(semantic('{"a":"\\u003c","n":1.0}', '{"n":1,"a":"<"}')).toEqual([]);
    expect(semantic('{"n":1}', '{"n":"1"}')[0]!.path).toBe('$.n');
    expect(semantic('{"n":18446744073709551617}', '{"n":18446744073709551616}')[0]!.path).toBe('$.n');
    expect(semantic('{"a":1}', '{"a":1,"b":null}')).toMatchObject([{ path: '$.b', expected: 'missing', got: 'null' }]);
  });
});

test('a value the comparison knows measures gas says so (gas, gasUsed, gasCost…); others do not', () => {
  const found = bytes(OURS.replace('"gas":"0x0"', '"gas":"0x5208"').replace('"from":"0xaa"', '"from":"0xab"'), OURS);
  expect(found.map((d) => [d.path, d.quantity])).toEqual([['$.result[0].action.from', undefined], ['$.result[0].action.gas', 'gas']]);
  expect(bytes('{"structLogs":[{"gasCost":3}]}', '{"structLogs":[{"gasCost":2}]}')[0]!.quantity).toBe('gas');
});

describe('what the reports count, as data', () => {
  test('key order, a value written differently, only whitespace: sameValue', () => {
    const sorted = OURS.replace('"from":"0xaa","callType":"call"', '"callType":"call","from":"0xaa"');
    expect(bytes(sorted, OURS).map((d) => d.sameValue)).toEqual(['keyOrder']);
    expect(bytes(OURS.replace('"subtraces":0', '"subtraces":0.0'), OURS).map((d) => d.sameValue)).toEqual(['spelling']);
    expect(bytes(OURS.replace('"id":1,', '"id": 1,'), OURS).map((d) => d.sameValue)).toEqual(['whitespace']);
    expect(bytes(OURS.replace('"0xaa"', '"0xab"'), OURS).map((d) => d.sameValue)).toEqual([undefined]);
  });

  test('a side with nothing there: absent, an item or the whole answer', () => {
    const fewer = OURS.replace(',"traceAddress":[]', '');
    expect(bytes(OURS, fewer).map((d) => [d.got, d.absent])).toEqual([['missing', { side: 'got', what: 'item' }]]);
    expect(bytes(fewer, OURS).map((d) => [d.expected, d.absent])).toEqual([['missing', { side: 'expected', what: 'item' }]]);
    expect(bytes(OURS, undefined).map((d) => [d.got, d.absent])).toEqual([['no answer', { side: 'got', what: 'answer' }]]);
    expect(bytes(OURS.replace('"0xaa"', '"0xab"'), OURS).map((d) => d.absent)).toEqual([undefined]);
  });
});
