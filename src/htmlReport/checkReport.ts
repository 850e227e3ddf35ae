// The HTML report's data for `check`: the run and its counts, an index of the failing cases that says
// what kind of difference each has and how many, then each failing case with the call trees of the
// recording and of our answer side by side (the frames and fields that differ marked) and every
// difference in a table, grouped and decoded as the text report has them.
import { gasAmounts } from '../compare/gas.ts';
import type { PathStep, PlacedDifference } from '../compare/types.ts';
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

/** What an item one side lacks is, by the array it is in: a call of a call tree, a log, else an item (or a member of an object: a field). */
function itemNoun(steps: readonly PathStep[]): string {
  const last = steps.at(-1);
  if (typeof last !== 'number') return 'field';
  const array = steps.at(-2);
  return array === 'calls' ? 'call' : array === 'logs' ? 'log' : array === 'topics' ? 'topic' : 'item';
}

/** The kind of one difference, as the index counts it (`changed value`, `call missing`, …). */
function kindOf(d: PlacedDifference): readonly [noun: string, after?: string] {
  if (d.sameValue === 'keyOrder') return ['key order change'];
  if (d.sameValue === 'spelling') return ['value', 'written differently'];
  if (d.sameValue === 'whitespace') return ['whitespace change'];
  // the recording's side is what check expects: what ours lacks is missing, what only ours has is extra
  if (d.absent !== undefined) return [d.absent.what === 'answer' ? 'answer' : itemNoun(d.location.steps), d.absent.side === 'got' ? 'missing' : 'extra'];
  return gasAmounts(d) !== undefined ? ['changed gas value'] : ['changed value'];
}

/** `3 changed values, 1 changed gas value, 1 call missing`: the kinds of `differences` with how many of each, in the order they first come. */
export function differenceKinds(differences: readonly PlacedDifference[]): string {
  const counts = new Map<string, { n: number; noun: string; after?: string }>();
  for (const d of differences) {
    const [noun, after] = kindOf(d);
    const key = `${noun} ${after ?? ''}`;
    const seen = counts.get(key);
    if (seen !== undefined) seen.n++;
    else counts.set(key, { n: 1, noun, ...(after === undefined ? {} : { after }) });
  }
  return [...counts.values()].map((k) => `${plural(k.n, k.noun)}${k.after === undefined ? '' : ` ${k.after}`}`).join(', ');
}

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
      kind: differenceKinds(c.differences),
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
    indexHeading: 'failing case',
    sections,
    abis: run.abis,
    labels: run.labels,
  };
}
