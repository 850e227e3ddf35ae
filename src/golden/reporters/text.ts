// A check report as people read it (one block per failure, then `N passed, M failed`) and as
// machines read it (`--json`: one JSON document).
import type { CaseResult, CheckReport } from './run.ts';

/** `N passed, M failed`, with `, K skipped` when recordings without an answer were passed over. */
export function summaryLine(report: CheckReport): string {
  return `${report.passed} passed, ${report.failed} failed${report.skipped > 0 ? `, ${report.skipped} skipped` : ''}`;
}

/** The case, the path of the first difference with both values, and the bytes around it. */
export function failureText(result: Extract<CaseResult, { status: 'fail' }>): string {
  const d = result.difference;
  const lines = [
    `FAIL ${result.name}  (${result.file})`,
    `  at ${d.path}`,
    `    expected: ${d.expected}`,
    `    got:      ${d.got}`,
  ];
  if (d.note !== undefined) lines.push(`  ${d.note}`);
  if (d.context !== undefined) {
    lines.push(`  first differing byte at offset ${d.context.offset}:`, `    expected: ${d.context.expected}`, `    got:      ${d.context.got}`);
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

/** `--json`: the counts and every case with its status (and difference or reason). */
export function jsonReport(report: CheckReport, run: { readonly fixture: string; readonly goldens: readonly string[] }): string {
  const { mode, passed, failed, skipped, cases } = report;
  return `${JSON.stringify({ fixture: run.fixture, goldens: run.goldens, mode, passed, failed, skipped, cases })}\n`;
}
