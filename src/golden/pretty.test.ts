import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { join } from 'node:path';
import { compactJson } from '../compare/jsonText.ts';
import { readGolden } from './layouts.ts';
import { isPretty, prettyJson, prettyTokens } from './pretty.ts';

const GOLDEN = join(import.meta.dir, '../../golden');

// Compact JSON *text* as clients write it, beyond what JSON.stringify makes: every escape (lone
// surrogates too), raw punctuation and whitespace inside strings, `1.0`, `-0`, `1E+2`, integers past
// 2^53, duplicate keys, integer-like keys (which JSON.parse reorders) and "__proto__".
const hex = fc.constantFrom(...'0123456789abcdefABCDEF');
const escape = fc.oneof(
  fc.constantFrom('\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u003c', '\\u0026', '\\ud83d\\ude00', '\\ud800', '\\u0000'),
  fc.tuple(hex, hex, hex, hex).map((d) => `\\u${d.join('')}`),
);
const rawChar = fc.oneof(
  fc.constantFrom('{', '}', '[', ']', ',', ':', ' ', '\u00e9', '\u2028', '😀', 'a'),
  // any UTF-16 unit but the quote, the backslash and controls, lone surrogates included
  fc.integer({ min: 0x20, max: 0xffff }).filter((c) => c !== 0x22 && c !== 0x5c).map((c) => String.fromCharCode(c)),
);
const stringToken = fc.array(fc.oneof(rawChar, escape), { maxLength: 8 }).map((parts) => `"${parts.join('')}"`);
const digits = (min: number, max: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((d) => d.join(''));
const numberToken = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 30)).map(([a, b]) => a + b)),
    fc.option(digits(1, 4).map((d) => `.${d}`), { nil: '' }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3)).map((p) => p.join('')), { nil: '' }),
  )
  .map((p) => p.join(''));
const key = fc.oneof(stringToken, fc.constantFrom('"a"', '"b"', '"1"', '"10"', '"__proto__"', '"toJSON"'));
const { value: jsonText } = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, stringToken, numberToken, fc.constantFrom('true', 'false', 'null'), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }).map((items) => `[${items.join(',')}]`),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((entries) => `{${entries.map(([k, v]) => `${k}:${v}`).join(',')}}`),
}));
/** What JSON.stringify writes: the fast path's inputs. */
const plainJson = fc.json();
const anyJson = fc.oneof(jsonText, plainJson);

const nonEmptyContainer = (text: string): boolean => /[[{]\s*[^\s\]}]/.test(compactJson(text).replace(/"(?:[^"\\]|\\.)*"/g, '""'));

/** A 2.4 MB debug_traceTransaction answer of the densest kind: many small tokens. */
function structLogs(returnValue: string): string {
  const log = (pc: number) =>
    `{"pc":${pc},"op":"PUSH1","gas":${99999 - pc},"gasCost":3,"depth":1,"stack":["0x1","0x2","0x${pc.toString(16)}"],"memory":["${'00'.repeat(32)}"],"storage":{}}`;
  const logs = Array.from({ length: 13_000 }, (_, pc) => log(pc));
  return `{"jsonrpc":"2.0","id":1,"result":{"gas":21000,"failed":false,"returnValue":"${returnValue}","structLogs":[${logs.join(',')}]}}`;
}

// Large answers, first in the file while the heap is fresh (as when `record` formats its first
// answer). Their speed is not asserted here: a timed test fails on a busy machine; `npm run bench`
// is where speed is shown.
describe('large answers', () => {
  test('a 2.4 MB answer is laid out whole', () => {
    const text = structLogs('');
    expect(text.length).toBeGreaterThan(2_300_000);
    const pretty = prettyJson(text);
    expect(isPretty(pretty)).toBe(true);
    expect(JSON.parse(pretty)).toEqual(JSON.parse(text));
  });

  test('the same answer with an escape JSON.parse would undo: the escape kept as written', () => {
    const text = structLogs('\\u003c');
    const pretty = prettyJson(text);
    expect(pretty).toContain('"returnValue": "\\u003c"');
    expect(JSON.parse(pretty)).toEqual(JSON.parse(text));
  });
});

describe('prettyJson', () => {
  test('the layout: a member or item a line, two spaces, "key": value, empty containers inline', () => {
    const text = '{"a":[1,2,{}],"b":{"c":[]},"d":"x\\u003c, y","e":1.0e+2,"a":null,"n":123456789012345678901234567890}';
    expect(prettyJson(text)).toBe(
      [
        '{',
        '  "a": [',
        '    1,',
        '    2,',
        '    {}',
        '  ],',
        '  "b": {',
        '    "c": []',
        '  },',
        '  "d": "x\\u003c, y",',
        '  "e": 1.0e+2,',
        '  "a": null,',
        '  "n": 123456789012345678901234567890',
        '}',
      ].join('\n'),
    );
    expect(prettyJson('{"jsonrpc":"2.0","id":1,"result":"0x1"}')).toBe('{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "result": "0x1"\n}');
    expect(prettyJson(' [ ] ')).toBe('[]');
    expect(prettyJson('"a b"')).toBe('"a b"');
  });

  test('text that is not one JSON value is returned as is', () => {
    for (const text of ['', ' ', 'not json', '[1,]', '1 2', '{"a":1}x', '{"a"}', '"\t"', '[', '01']) expect(prettyJson(text)).toBe(text);
  });

  test('only whitespace changes: compactJson(prettyJson(x)) === x, on both paths, idempotent', () => {
    fc.assert(
      fc.property(anyJson, (x) => {
        const pretty = prettyJson(x);
        expect(compactJson(pretty)).toBe(x);
        expect(prettyTokens(x)).toBe(pretty);
        expect(prettyJson(pretty)).toBe(pretty);
      }),
      { numRuns: 2000 },
    );
  });

  test('the walk lays out exactly as JSON.stringify with a gap of 2 where parsing loses nothing', () => {
    fc.assert(
      fc.property(plainJson, (x) => {
        expect(prettyTokens(x)).toBe(JSON.stringify(JSON.parse(x), null, 2));
      }),
      { numRuns: 1000 },
    );
  });

  test('broken JSON (a character dropped or added) comes back unchanged', () => {
    const mutated = fc
      .tuple(jsonText, fc.nat(), fc.constantFrom('', ',', '}', ']', '"', '\\', '\n', 'x'))
      .map(([x, at, put]) => x.slice(0, at % (x.length + 1)) + put + x.slice((at % (x.length + 1)) + (put === '' ? 1 : 0)));
    fc.assert(
      fc.property(mutated, (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (!valid) expect(prettyJson(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  test('real goldens: anvil pairs and execution-apis .io answers', () => {
    const responses = [join(GOLDEN, 'anvil'), join(GOLDEN, 'execution-apis/tests')].flatMap((dir) => readGolden(dir).exchanges.map((e) => e.response!));
    expect(responses.length).toBeGreaterThan(200);
    for (const response of responses) {
      const pretty = prettyJson(response);
      expect(compactJson(pretty)).toBe(compactJson(response));
      expect(prettyTokens(response)).toBe(pretty);
      expect(isPretty(pretty)).toBe(isPretty(response) || nonEmptyContainer(response));
    }
    // some of them take the walk: geth escapes <, > and & (encoding/json's HTML escaping)
    expect(responses.some((r) => r.includes('\\u00'))).toBe(true);
  });

});

describe('isPretty', () => {
  test('whitespace between tokens, not inside strings nor around the value', () => {
    expect(isPretty('{"a":1}')).toBe(false);
    expect(isPretty('{"a":1}\n')).toBe(false);
    expect(isPretty('\r\n{"a":"x y\\" z"}\r\n')).toBe(false);
    expect(isPretty('{"a": 1}')).toBe(true);
    expect(isPretty('{\n  "a": 1\n}\n')).toBe(true);
    expect(isPretty('')).toBe(false);
  });

  test('compact text is not pretty; its pretty form is, when it has a non-empty container', () => {
    fc.assert(
      fc.property(anyJson, (x) => {
        expect(isPretty(x)).toBe(false);
        expect(isPretty(`${x}\n`)).toBe(false);
        expect(isPretty(prettyJson(x))).toBe(nonEmptyContainer(x));
      }),
      { numRuns: 1000 },
    );
  });
});
