// One difference as lines of text, the way every text report shows it (check's, diff's): the field,
// both values (long hex as the 32-byte words that differ) with carets under the characters that
// differ (as a compiler points at a column: it survives a log with no colour), gas in decimal with
// its change, what each value means where ABIs say, a note, and the JSON path. Pure.
import { charDiff, elided, hasCommon, type Run, sideRuns } from '../encoding/textDiff.ts';
import { gasAmounts, gasChange } from './gas.ts';
import type { PlacedDifference } from './types.ts';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A value on one side only (a frame, a whole result) is shown up to this many characters. */
const WHOLE_UP_TO = 2000;

/** A value as the report shows it: whole, unless it is a large object or array the other side lacks altogether. */
function shown(value: string, other: string): string {
  if (value.length <= WHOLE_UP_TO || (other !== 'missing' && other !== 'no answer') || !/^[[{]/.test(value)) return value;
  return `${value.slice(0, WHOLE_UP_TO)}… (${value.length.toLocaleString('en')} characters; --reporter json has it whole)`;
}

/** Values up to this long get carets under them; a longer pair is followed by the stretches where it differs, equal runs cut. */
const CARETS_UP_TO = 100;
/** Equal characters kept beside each differing run of a long pair. */
const CONTEXT = 16;

const NOT_VALUES = new Set(['missing', 'no answer']);

const runText = (runs: readonly Run[]): string => runs.map((r) => (r.cut === undefined ? r.text : `…(${r.cut.toLocaleString('en')} equal)…`)).join('');
/** `^` under each marked character, spaces under the rest; empty when nothing is marked. */
const carets = (runs: readonly Run[]): string => runs.map((r) => (r.cut === undefined ? r.text : `…(${r.cut.toLocaleString('en')} equal)…`).replace(/./gsu, r.marked ? '^' : ' ')).join('').trimEnd();

/**
 * Two values as a pair of lines (`left` is the indent and label of each), with the carets that mark
 * where they differ: one line under the second when the marks of both fall on the same columns, else
 * one under each side that has characters of its own to mark. None when the values share nothing.
 */
function markedPair(a: string, b: string, left: readonly [string, string], indent: string, cut: boolean): string[] {
  const parts = NOT_VALUES.has(a) || NOT_VALUES.has(b) ? [] : charDiff(a, b);
  if (!hasCommon(parts)) return [`${left[0]}${a}`, `${left[1]}${b}`];
  const [ra, rb] = (['a', 'b'] as const).map((side) => (cut ? elided(sideRuns(parts, side), CONTEXT) : sideRuns(parts, side)));
  const [ca, cb] = [carets(ra!), carets(rb!)];
  const under = (c: string): string[] => (c === '' ? [] : [`${indent}${c}`]);
  const [ta, tb] = cut ? [runText(ra!), runText(rb!)] : [a, b];
  if (ca === cb) return [`${left[0]}${ta}`, `${left[1]}${tb}`, ...under(cb)];
  return [`${left[0]}${ta}`, ...under(ca), `${left[1]}${tb}`, ...under(cb)];
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
  const gas = gasAmounts(d);
  if (d.words !== undefined) {
    lines.push(`${pad}  ${plural(d.words.length, 'word')} of 32 bytes differ (offsets in bytes):`);
    for (const w of d.words) {
      lines.push(`${pad}    @${w.offset}`, ...markedPair(w.expected, w.got, [`${pad}      ${a} `, `${pad}      ${b} `], `${pad}      ${' '.repeat(width)} `, false));
    }
  } else if (gas !== undefined) {
    // gas: the hex as the answers have it, then what it says in decimal
    lines.push(`${pad}  ${a} ${d.expected}`, `${pad}  ${b} ${d.got}`, `${pad}  ${'gas:'.padEnd(width)} ${gasChange(gas)}`);
  } else {
    const [ea, eb] = [shown(d.expected, d.got), shown(d.got, d.expected)];
    if (ea.length <= CARETS_UP_TO && eb.length <= CARETS_UP_TO) lines.push(...markedPair(ea, eb, [`${pad}  ${a} `, `${pad}  ${b} `], `${pad}  ${' '.repeat(width)} `, false));
    else {
      lines.push(`${pad}  ${a} ${ea}`, `${pad}  ${b} ${eb}`);
      // too long to point at under the whole values: where they differ, the long equal runs cut
      const excerpt = markedPair(d.expected, d.got, [`${pad}    ${a} `, `${pad}    ${b} `], `${pad}    ${' '.repeat(width)} `, true);
      if (excerpt.length > 2) lines.push(`${pad}  where they differ (long equal runs cut):`, ...excerpt);
    }
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

