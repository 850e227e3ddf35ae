import { expect, test } from 'bun:test';
import { parseJsonPath } from '../compare/ignore.ts';
import type { PathStep, PlacedDifference } from '../compare/types.ts';
import { differenceKinds } from './checkReport.ts';

/** A difference at `path` (as `--ignore` writes it): the kinds read its location's steps. */
const d = (path: string, expected: string, got: string, extra: Partial<PlacedDifference> = {}): PlacedDifference => {
  const steps = path === '$' ? [] : (parseJsonPath(path) as PathStep[]);
  return { path, expected, got, where: 'w', field: 'f', location: { steps, places: [], field: { steps } }, ...extra };
};
/** The side the engine marks absent: the kinds read this, never the `missing` phrase. */
const GOT_ITEM = { absent: { side: 'got', what: 'item' } } as const;
const EXPECTED_ITEM = { absent: { side: 'expected', what: 'item' } } as const;

test('the index line of a failing case: each kind of difference with how many, in the order they first come', () => {
  expect(
    differenceKinds([
      d('$.result.calls[0].output', '"0x01"', '"0x02"'),
      d('$.result.gasUsed', '"0x5208"', '"0x5a3c"', { quantity: 'gas' }),
      d('$.result.calls[1]', '{"type":"CALL"}', 'missing', GOT_ITEM),
      d('$.result.calls[0].input', '"0x03"', '"0x04"'),
      d('$.result.logs[2]', 'missing', '{"data":"0x"}', EXPECTED_ITEM),
      d('$.result.revertReason', '"no"', 'missing', GOT_ITEM),
      d('$.result[3]', '{"a":1}', 'missing', GOT_ITEM),
      d('$.result.calls[0].gas', '"0x1"', '"0x2"', { quantity: 'gas' }),
      d('$', '["id","jsonrpc"]', '["jsonrpc","id"]', { note: 'the same keys in another order', sameValue: 'keyOrder' }),
      d('$.result.value', '"0x01"', '"0x1"', { note: 'the same string, written differently', sameValue: 'spelling' }),
    ]),
  ).toBe('2 changed values, 2 changed gas values, 1 call missing, 1 log extra, 1 field missing, 1 item missing, 1 key order change, 1 value written differently');
  expect(differenceKinds([d('$', '{"result":1}', 'no answer', { absent: { side: 'got', what: 'answer' } })])).toBe('1 answer missing');
  expect(differenceKinds([d('$', 'no answer', '{"result":1}', { absent: { side: 'expected', what: 'answer' } })])).toBe('1 answer extra');
});
