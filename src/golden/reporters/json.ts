// `--reporter json` (= `--json`): one JSON document with the counts and every case; a failing case
// has `differences` (every one, whole, placed and decoded: the texts the other reports print, and its
// location as data). The schema, by its `version`, is in docs/ci.md.
import { differenceJson } from '../../compare/location.ts';
import type { CheckReport } from '../run.ts';

/** The version of this report's schema (docs/ci.md, "The JSON report"). */
export const CHECK_JSON_VERSION = 2;

export function jsonReport(report: CheckReport, run: { readonly fixture: string; readonly goldens: readonly string[] }): string {
  const { mode, passed, failed, skipped } = report;
  const cases = report.cases.map((c) => (c.status === 'fail' ? { ...c, differences: c.differences.map(differenceJson) } : c));
  return `${JSON.stringify({ version: CHECK_JSON_VERSION, fixture: run.fixture, goldens: run.goldens, mode, passed, failed, skipped, cases })}\n`;
}
