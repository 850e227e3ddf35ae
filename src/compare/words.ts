// A hex value longer than one line is shown as the 32-byte words that differ, with their offsets,
// never as two prefixes that look the same. Words line up with what the data holds: calldata keeps
// its 4-byte selector as a word of its own (`selector`), so the ABI words are its arguments; a
// contract's creation code ends with its constructor's arguments, so its words are counted from the
// end (`end`); anything else (event data, results, storage) from the start.
import type { WordChange } from './types.ts';

const HEX = /^0x[0-9a-fA-F]*$/;
/** `0x` and one 32-byte word: anything longer is shown by words. */
const ONE_WORD = 66;

export type Alignment = 'start' | 'selector' | 'end';

/** The words that differ, or undefined when either side is not long hex data. */
export function wordChanges(expected: string, got: string, alignment: Alignment): WordChange[] | undefined {
  if (!HEX.test(expected) || !HEX.test(got) || (expected.length <= ONE_WORD && got.length <= ONE_WORD)) return undefined;
  if (expected.length % 2 !== 0 || got.length % 2 !== 0) return undefined;
  const a = expected.slice(2);
  const b = got.slice(2);
  // creation code: the recording's length decides where the last word starts
  const start = alignment === 'selector' && a.length >= 8 && b.length >= 8 ? 4 : alignment === 'end' ? (a.length / 2) % 32 : 0;
  const bounds: [number, number][] = start > 0 ? [[0, start]] : [];
  for (let at = start; at * 2 < Math.max(a.length, b.length); at += 32) bounds.push([at, at + 32]);
  const changes: WordChange[] = [];
  for (const [from, to] of bounds) {
    const wa = a.slice(from * 2, to * 2);
    const wb = b.slice(from * 2, to * 2);
    if (wa === wb) continue;
    changes.push({ offset: from, expected: wa === '' ? 'missing' : `0x${wa}`, got: wb === '' ? 'missing' : `0x${wb}` });
  }
  return changes;
}
