// The check report as people read it: each failing case with every difference, grouped under where
// it happened (transaction, frame path, account), values whole, long hex as the words that differ,
// decoded where ABIs allow; then `N passed, M failed`. Pure: no colour, no I/O.
import { groupByPlace, type PlacedDifference } from '../../compare/types.ts';
import type { CaseResult, CheckReport } from '../run.ts';

export type FailedCase = Extract<CaseResult, { status: 'fail' }>;

/** `N passed, M failed`, with `, K skipped` when recordings without an answer were passed over. */
export function summaryLine(report: Pick<CheckReport, 'passed' | 'failed' | 'skipped'>): string {
  return `${report.passed} passed, ${report.failed} failed${report.skipped > 0 ? `, ${report.skipped} skipped` : ''}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A value on one side only (a frame, a whole result) is shown up to this many characters. */
const WHOLE_UP_TO = 2000;

/** A value as the report shows it: whole, unless it is a large object or array the other side lacks altogether. */
function shown(value: string, other: string): string {
  if (value.length <= WHOLE_UP_TO || (other !== 'missing' && other !== 'no answer') || !/^[[{]/.test(value)) return value;
  return `${value.slice(0, WHOLE_UP_TO)}… (${value.length.toLocaleString('en')} characters; --reporter json has it whole)`;
}

/** The lines of one difference, indented by `pad`. */
function differenceLines(d: PlacedDifference, pad: string): string[] {
  const lines = [`${pad}${d.field}`];
  if (d.words !== undefined) {
    lines.push(`${pad}  ${plural(d.words.length, 'word')} of 32 bytes differ (offsets in bytes):`);
    for (const w of d.words) {
      lines.push(`${pad}    @${w.offset}`, `${pad}      expected: ${w.expected}`, `${pad}      got:      ${w.got}`);
    }
  } else {
    lines.push(`${pad}  expected: ${shown(d.expected, d.got)}`, `${pad}  got:      ${shown(d.got, d.expected)}`);
  }
  if (d.decoded !== undefined) {
    if (d.decoded.expected !== undefined) lines.push(`${pad}  expected means: ${d.decoded.expected}`);
    if (d.decoded.got !== undefined) lines.push(`${pad}  got means:      ${d.decoded.got}`);
  }
  if (d.note !== undefined) lines.push(`${pad}  (${d.note})`);
  // the JSON path, as --ignore takes it
  lines.push(`${pad}  at ${d.path}`);
  return lines;
}

/** A failing case: its name and file, then every difference under its heading. */
export function failureText(result: FailedCase): string {
  const lines = [`FAIL ${result.name}  (${result.file})`, `  ${plural(result.differences.length, 'difference')}`];
  for (const group of groupByPlace(result.differences)) {
    lines.push(`  ${group.where}`);
    for (const d of group.differences) lines.push(...differenceLines(d, '    '));
  }
  return lines.join('\n');
}

/** Failures and skips, then the summary line; ends with a newline. */
export function textReport(report: CheckReport): string {
  const blocks: string[] = [];
  for (const c of report.cases) {
    if (c.status === 'fail') blocks.push(failureText(c));
    else if (c.status === 'skip') blocks.push(`SKIP ${c.name}  (${c.file}): ${c.reason}`);
  }
  blocks.push(summaryLine(report));
  return `${blocks.join('\n')}\n`;
}
