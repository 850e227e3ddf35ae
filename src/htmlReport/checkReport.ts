// The HTML report's data for `check`: the run and its counts, then each failing case with the call
// trees of the recording and of our answer side by side (the frames and fields that differ marked)
// and every difference in a table, grouped and decoded as the text report has them.
import type { CheckReport } from '../golden/run.ts';
import { summaryLine } from '../golden/reporters/text.ts';
import type { ReportData, ReportSection } from '../ui/reportData.ts';
import { treesIn } from './callTrees.ts';
import { reportDifference } from './htmlReport.ts';

/** Both answers of a failing case: the recording and ours (undefined: no answer). */
export interface CaseAnswers {
  readonly expected: string | undefined;
  readonly got: string | undefined;
}

export interface CheckRun {
  readonly fixture: string;
  readonly goldens: readonly string[];
  /** The answers of each failing case, by its file and name (`file\nname`). */
  readonly answers: ReadonlyMap<string, CaseAnswers>;
  readonly abis: ReportData['abis'];
  readonly labels: ReportData['labels'];
}

export const caseKey = (c: { readonly file: string; readonly name: string }): string => `${c.file}\n${c.name}`;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function checkReportData(report: CheckReport, run: CheckRun): ReportData {
  const sections: ReportSection[] = [];
  for (const c of report.cases) {
    if (c.status !== 'fail') continue;
    const answers = run.answers.get(caseKey(c));
    sections.push({
      id: `case-${sections.length + 1}`,
      title: `FAIL ${c.name}`,
      lines: [c.file, `${c.methods.join(', ')}: ${plural(c.differences.length, 'difference')}`],
      trees: answers === undefined ? [] : treesIn(answers.expected, answers.got, c.differences),
      tables: [{ title: 'Differences', differences: c.differences.map(reportDifference) }],
    });
  }
  const skipped = report.cases.filter((c) => c.status === 'skip');
  return {
    title: `check ${run.fixture}`,
    sides: ['recorded', 'ours'],
    summary: [
      { name: 'fixture', value: run.fixture },
      { name: 'goldens', value: run.goldens.join(' ') },
      { name: 'compared', value: report.mode === 'bytes' ? 'byte for byte' : 'as values (--semantic)' },
      ...(skipped.length === 0 ? [] : [{ name: 'skipped', value: skipped.map((c) => c.name).join(', ') }]),
    ],
    headline: summaryLine(report),
    sections,
    abis: run.abis,
    labels: run.labels,
  };
}
