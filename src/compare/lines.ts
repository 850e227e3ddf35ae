// One difference as lines of text, the way every text report shows it (check's, diff's): the field,
// both values (long hex as the 32-byte words that differ), what each means where ABIs say, a note,
// and the JSON path. Pure.
import type { PlacedDifference } from './types.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A value on one side only (a frame, a whole result) is shown up to this many characters. */
const WHOLE_UP_TO = 2000;

/** A value as the report shows it: whole, unless it is a large object or array the other side lacks altogether. */
function shown(value: string, other: string): string {
  if (value.length <= WHOLE_UP_TO || (other !== 'missing' && other !== 'no answer') || !/^[[{]/.test(value)) return value;
  return `${value.slice(0, WHOLE_UP_TO)}… (${value.length.toLocaleString('en')} characters; --reporter json has it whole)`;
}

/**
 * The lines of one difference, indented by `pad`. `sides` names the two sides (check: the recording
 * is `expected`, our answer `got`; diff: the two chains).
 */
export function differenceLines(d: PlacedDifference, pad: string, sides: readonly [string, string] = ['expected', 'got']): string[] {
  const width = Math.max(sides[0].length, sides[1].length) + 1;
  const [a, b] = sides.map((s) => `${s}:`.padEnd(width)) as [string, string];
  const [am, bm] = sides.map((s) => `${s} means:`.padEnd(width + 6)) as [string, string];
  const lines = [`${pad}${d.field}`];
  if (d.words !== undefined) {
    lines.push(`${pad}  ${plural(d.words.length, 'word')} of 32 bytes differ (offsets in bytes):`);
    for (const w of d.words) {
      lines.push(`${pad}    @${w.offset}`, `${pad}      ${a} ${w.expected}`, `${pad}      ${b} ${w.got}`);
    }
  } else {
    lines.push(`${pad}  ${a} ${shown(d.expected, d.got)}`, `${pad}  ${b} ${shown(d.got, d.expected)}`);
  }
  if (d.decoded !== undefined) {
    if (d.decoded.expected !== undefined) lines.push(`${pad}  ${am} ${d.decoded.expected}`);
    if (d.decoded.got !== undefined) lines.push(`${pad}  ${bm} ${d.decoded.got}`);
  }
  if (d.note !== undefined) lines.push(`${pad}  (${d.note})`);
  // the JSON path, as --ignore takes it
  lines.push(`${pad}  at ${d.path}`);
  return lines;
}

