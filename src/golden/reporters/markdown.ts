// `--report FILE.md`: the run in Markdown, for a GitHub job summary (the Action appends it to
// $GITHUB_STEP_SUMMARY) or a merge request's comment: the counts, then each failing case with its
// file and line and its first differences as the text report words them. Pure.
import { differenceLines } from '../../compare/lines.ts';
import { groupByPlace } from '../../compare/types.ts';
import type { CheckReport } from '../run.ts';
import { annotationPath } from './github.ts';
import { type FailedCase, summaryLine } from './text.ts';

/** Failing cases shown whole, and differences shown per case; the log has the rest (a job summary holds 1 MiB). */
const CASES_SHOWN = 30;
const DIFFERENCES_SHOWN = 3;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

function failedCase(c: FailedCase, cwd: string): string[] {
  const line = c.differences[0]?.line;
  const shown = c.differences.slice(0, DIFFERENCES_SHOWN);
  const text: string[] = [];
  for (const group of groupByPlace(shown)) {
    text.push(group.where);
    for (const d of group.differences) text.push(...differenceLines(d, '  '));
  }
  const more = c.differences.length - shown.length;
  if (more > 0) text.push(`… ${plural(more, 'more difference')}`);
  // a fence longer than any run of backticks inside
  const fence = '`'.repeat(Math.max(3, ...[...text.join('\n').matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [
    `#### ${code(c.name)}`,
    `${code(annotationPath(c.file, cwd))}${line === undefined ? '' : ` line ${line}`}: ${plural(c.differences.length, 'difference')}`,
    '',
    `${fence}text`,
    ...text,
    fence,
    '',
  ];
}

export function markdownReport(report: CheckReport, run: { readonly fixture: string; readonly goldens: readonly string[]; readonly cwd?: string }): string {
  const cwd = run.cwd ?? process.cwd();
  const failed = report.cases.filter((c): c is FailedCase => c.status === 'fail');
  const lines = [`### blocktrace check: ${summaryLine(report)}`, '', `${code(run.fixture)} against ${run.goldens.map(code).join(', ')}`, ''];
  for (const c of failed.slice(0, CASES_SHOWN)) lines.push(...failedCase(c, cwd));
  if (failed.length > CASES_SHOWN) lines.push(`… and ${plural(failed.length - CASES_SHOWN, 'more failing case')}: the step's log has every one.`, '');
  const skipped = report.cases.filter((c) => c.status === 'skip');
  if (skipped.length > 0) lines.push(`Skipped (no answer to compare): ${skipped.map((c) => code(c.name)).join(', ')}`, '');
  return `${lines.join('\n')}`;
}
