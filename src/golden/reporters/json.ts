// `--reporter json` (= `--json`): one JSON document with the counts and every case; a failing case
// keeps `difference` (the first, with the bytes around it, as before) and adds `differences` (every
// one, whole, placed and decoded).
import type { CheckReport } from '../run.ts';

export function jsonReport(report: CheckReport, run: { readonly fixture: string; readonly goldens: readonly string[] }): string {
  const { mode, passed, failed, skipped, cases } = report;
  return `${JSON.stringify({ fixture: run.fixture, goldens: run.goldens, mode, passed, failed, skipped, cases })}\n`;
}
