// The check report as people read it: each failing case with every difference, grouped under where
// it happened (transaction, frame path, account), values whole, long hex as the words that differ,
// decoded where ABIs allow; then `N passed, M failed`. Pure: no colour, no I/O.
import { differenceLines } from '../../compare/lines.ts';
import { groupByPlace } from '../../compare/types.ts';
import type { CaseResult, CheckReport } from '../run.ts';

export type FailedCase = Extract<CaseResult, { status: 'fail' }>;

/** `N passed, M failed`, with `, K skipped` when recordings without an answer were passed over. */
export function summaryLine(report: Pick<CheckReport, 'passed' | 'failed' | 'skipped'>): string {
  return `${report.passed} passed, ${report.failed} failed${report.skipped > 0 ? `, ${report.skipped} skipped` : ''}`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

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
