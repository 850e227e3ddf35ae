import { expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { boundedGoJson, OverBudget } from './boundedJson.ts';
import { goJson } from './json.ts';

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
