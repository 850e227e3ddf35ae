import { describe, expect, test } from 'bun:test';
import { charDiff, elided, hasCommon, type Part, sideRuns } from './textDiff.ts';

/** Parts as jest-diff's notation: equal text bare, `[-deleted-]`, `{+inserted+}`. */
const shown = (parts: readonly Part[]): string => parts.map((p) => (p.op === 'equal' ? p.text : p.op === 'delete' ? `[-${p.text}-]` : `{+${p.text}+}`)).join('');

describe('charDiff', () => {
  test('equal values have no change', () => {
    expect(charDiff('0x5208', '0x5208')).toEqual([{ op: 'equal', text: '0x5208' }]);
    expect(charDiff('', '')).toEqual([]);
  });

  test('one digit inside a long hex value: the common head and tail stay, the digit is marked', () => {
    const a = `0x${'0'.repeat(40)}c72dd9d5e883e${'0'.repeat(40)}`;
    const b = `0x${'0'.repeat(40)}c72dd9d5f883e${'0'.repeat(40)}`;
    expect(shown(charDiff(a, b))).toBe(`0x${'0'.repeat(40)}c72dd9d5[-e-]{+f+}883e${'0'.repeat(40)}`);
  });

  test('a quantity: the digits after the common prefix', () => {
    expect(shown(charDiff('"0x28645"', '"0x2a0f5"'))).toBe('"0x2[-864-]{+a0f+}5"');
  });

  test('an insertion and a deletion are one-sided', () => {
    expect(shown(charDiff('"user error"', '"user errorr"'))).toBe('"user error{+r+}"');
    expect(shown(charDiff('"execution reverted"', '"reverted"'))).toBe('"[-execution -]reverted"');
  });

  test('two changes far apart stay two; the long equal run between them is kept', () => {
    expect(shown(charDiff('0x01aaaaaaaaaaaaaaaaaaaa02', '0x03aaaaaaaaaaaaaaaaaaaa04'))).toBe('0x0[-1-]{+3+}aaaaaaaaaaaaaaaaaaaa0[-2-]{+4+}');
  });

  test('single characters that two unrelated runs share by chance are folded into one change, not confetti', () => {
    const parts = charDiff('0xab3c9e11', '0x7f3d2e88');
    expect(shown(parts)).toBe('0x[-ab3c9e11-]{+7f3d2e88+}');
    expect(hasCommon(parts)).toBe(true);
    expect(hasCommon(charDiff('abc', 'xyz'))).toBe(false);
  });

  test('the whole of each side is in its runs, and only differing characters are marked', () => {
    for (const [a, b] of [['"0x28645"', '"0x2a0f5"'], ['{"a":1,"b":[1,2]}', '{"a":2,"b":[1,2,3]}'], ['kitten', 'sitting'], ['', 'x']] as const) {
      const parts = charDiff(a, b);
      expect(sideRuns(parts, 'a').map((r) => r.text).join('')).toBe(a);
      expect(sideRuns(parts, 'b').map((r) => r.text).join('')).toBe(b);
      for (const side of ['a', 'b'] as const) for (const r of sideRuns(parts, side)) expect(r.marked).toBe(parts.find((p) => p.text === r.text)!.op !== 'equal');
    }
  });

  test('middles too large for the table are one change each way', () => {
    const a = `x${'ab'.repeat(800)}y`;
    const b = `x${'ba'.repeat(800)}y`;
    expect(charDiff(a, b)).toEqual([{ op: 'equal', text: 'x' }, { op: 'delete', text: 'ab'.repeat(800) }, { op: 'insert', text: 'ba'.repeat(800) }, { op: 'equal', text: 'y' }]);
  });
});

describe('elided', () => {
  test('long equal runs are cut to the context beside each change, counted; the changes are whole', () => {
    const a = `${'1'.repeat(100)}abc${'2'.repeat(50)}def${'3'.repeat(100)}`;
    const b = `${'1'.repeat(100)}xyz${'2'.repeat(50)}uvw${'3'.repeat(100)}`;
    const runs = elided(sideRuns(charDiff(a, b), 'b'), 4);
    expect(runs).toEqual([
      { text: '', marked: false, cut: 96 },
      { text: '1111', marked: false },
      { text: 'xyz', marked: true },
      { text: '2222', marked: false },
      { text: '', marked: false, cut: 42 },
      { text: '2222', marked: false },
      { text: 'uvw', marked: true },
      { text: '3333', marked: false },
      { text: '', marked: false, cut: 96 },
    ]);
  });

  test('short equal runs are kept whole', () => {
    const runs = sideRuns(charDiff('"0x28645"', '"0x2a0f5"'), 'a');
    expect(elided(runs, 4)).toEqual(runs);
  });
});
