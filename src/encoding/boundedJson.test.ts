import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boundedGoJson, OverBudget } from './boundedJson.ts';
import { goJson } from './json.ts';
import { LazyArray, LazyObject } from './lazyJson.ts';

const GOLDEN = join(import.meta.dir, '../../golden/anvil/cancun-devnet');

test('the same bytes as goJson for every recorded answer, and for awkward values', () => {
  const values: unknown[] = readdirSync(GOLDEN)
    .filter((f) => f.endsWith('.response.json'))
    .map((f) => JSON.parse(readFileSync(join(GOLDEN, f), 'utf8')));
  values.push({ a: undefined, b: [undefined, () => 1, null], '1': '<&>\u2028', c: { d: [[], {}, [1, [2, [3]]]] } }, 'x', 3, null, []);
  for (const v of values) {
    const { text, bytes } = boundedGoJson(v, 1e12);
    expect(text).toBe(goJson(v));
    expect(bytes).toBe(Buffer.byteLength(text));
  }
});

test('past the budget it stops while writing: a value far larger than the budget throws OverBudget', () => {
  const huge = Array.from({ length: 200_000 }, (_, i) => ({ from: '0x' + '1'.repeat(40), input: '0x' + 'ab'.repeat(256), i, calls: [{ x: i }] }));
  expect(() => boundedGoJson(huge, 1_000_000)).toThrow(OverBudget);
  expect(boundedGoJson(huge.slice(0, 10), 1_000_000).bytes).toBeLessThan(1_000_000);
  expect(() => boundedGoJson('é', 3)).toThrow(OverBudget); // '"é"' is 4 bytes in UTF-8
  expect(boundedGoJson('é', 4).bytes).toBe(4);
});

test('lazy arrays and objects: the same bytes as the plain value; an endless one stops at the budget', () => {
  const plain = { a: [1, { b: 'x<y' }], c: { d: [], e: null } };
  const lazy = {
    a: new LazyArray(function* () {
      yield 1;
      yield new LazyObject(() => [['b', 'x<y'], ['skipped', undefined]]);
    }),
    c: new LazyObject(() => [['d', new LazyArray(() => [])], ['e', null]]),
  };
  expect(boundedGoJson(lazy, 1e12).text).toBe(goJson(plain));
  expect(boundedGoJson(lazy, 0).text).toBe(goJson(plain));
  expect(goJson(lazy)).toBe(goJson(plain));
  let rendered = 0;
  const endless = new LazyArray(function* () {
    for (;;) yield { n: ++rendered, input: '0x' + 'ab'.repeat(100) };
  });
  expect(() => boundedGoJson({ result: endless }, 100_000)).toThrow(OverBudget);
  expect(rendered).toBeLessThan(600);
});
