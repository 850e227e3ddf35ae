// `--reporter junit`: the check report as JUnit XML, the de-facto schema CI systems read (Jenkins,
// GitLab, GitHub test-report actions), shaped as jest-junit and Playwright's junit reporter write it:
// one <testsuite> per GOLDEN argument, one <testcase> per recording, a <failure> whose text is the
// same grouped story the text reporter tells. Pure: the timestamp comes in as a parameter.
import type { CaseResult, CheckReport } from '../run.ts';
import { failureText, type FailedCase } from './text.ts';

export interface JunitRun {
  readonly fixture: string;
  readonly goldens: readonly string[];
}

// Characters XML 1.0 forbids even as references (§2.2 Char): controls other than tab, LF and CR,
// lone surrogates, U+FFFE/U+FFFF. A decoded revert reason or log string may carry them, and one
// such byte makes the whole file unreadable to a strict parser, so each becomes U+FFFD.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const entities: Record<string, string> = {
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;',
  // As references, so attribute-value normalisation (tab/newline → space) and end-of-line
  // handling (CR LF → LF) cannot alter them: a path or message reads back byte for byte.
  '\t': '&#9;', '\n': '&#10;', '\r': '&#13;',
};

/** Text safe in an attribute value (double-quoted) or in element content (where JSON's quotes stay readable). */
export function xmlEscape(text: string, inAttribute: boolean): string {
  const special = inAttribute ? /[&<>"'\t\n\r]/g : /[&<>\r]/g;
  return text.replace(notXmlChar, '\uFFFD').replace(special, (c) => entities[c] ?? c);
}

const attributes = (pairs: Record<string, string | number>): string =>
  Object.entries(pairs).map(([k, v]) => ` ${k}="${xmlEscape(String(v), true)}"`).join('');

/** Milliseconds as JUnit's seconds, 3 decimals. */
export const seconds = (ms: number): string => (ms / 1000).toFixed(3);

const caseMs = (c: CaseResult): number => (c.status === 'skip' ? 0 : c.timeMs);

/** `N differences; first at PATH`. */
function failureMessage(c: FailedCase): string {
  const n = c.differences.length;
  return `${n} difference${n === 1 ? '' : 's'}; first at ${c.differences[0]?.path ?? '$'}`;
}

function testcase(c: CaseResult): string {
  const open = `    <testcase${attributes({ name: c.name, classname: c.golden, file: c.file, time: seconds(caseMs(c)) })}`;
  if (c.status === 'pass') return `${open}/>`;
  const inner =
    c.status === 'fail'
      ? `<failure${attributes({ message: failureMessage(c), type: 'mismatch' })}>${xmlEscape(failureText(c), false)}</failure>`
      : `<skipped${attributes({ message: c.reason })}/>`;
  return `${open}>\n      ${inner}\n    </testcase>`;
}

interface Counts {
  tests: number;
  failures: number;
  skipped: number;
  ms: number;
}

function count(cases: readonly CaseResult[]): Counts {
  const n = (s: CaseResult['status']): number => cases.filter((c) => c.status === s).length;
  return { tests: cases.length, failures: n('fail'), skipped: n('skip'), ms: cases.reduce((t, c) => t + caseMs(c), 0) };
}

/**
 * The suites in the order of the GOLDEN arguments, each with its cases in report order. An argument
 * that yielded no case still gets an (empty) suite, so CI shows what was checked; a case whose
 * `golden` is not among the arguments gets a suite of its own rather than being dropped.
 */
function suitesOf(report: CheckReport, goldens: readonly string[]): Map<string, CaseResult[]> {
  const suites = new Map<string, CaseResult[]>(goldens.map((g) => [g, []]));
  for (const c of report.cases) {
    const list = suites.get(c.golden);
    if (list === undefined) suites.set(c.golden, [c]);
    else list.push(c);
  }
  return suites;
}

/**
 * The whole document, ending with a newline. `at` is the run's start; JUnit's XSD wants the
 * timestamp without a zone (jest-junit writes it so), and it is UTC.
 */
export function junitReport(report: CheckReport, run: JunitRun, at: Date = new Date()): string {
  const timestamp = at.toISOString().slice(0, 19);
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const total = count(report.cases);
  lines.push(
    `<testsuites${attributes({ name: 'blocktrace check', tests: total.tests, failures: total.failures, errors: 0, skipped: total.skipped, time: seconds(total.ms) })}>`,
  );
  for (const [golden, cases] of suitesOf(report, run.goldens)) {
    const c = count(cases);
    lines.push(
      `  <testsuite${attributes({ name: golden, tests: c.tests, failures: c.failures, errors: 0, skipped: c.skipped, time: seconds(c.ms), timestamp })}>`,
      // What the answers were computed from: the same for every suite, but a suite is read alone.
      `    <properties>`,
      `      <property${attributes({ name: 'fixture', value: run.fixture })}/>`,
      `      <property${attributes({ name: 'mode', value: report.mode })}/>`,
      `    </properties>`,
      ...cases.map(testcase),
      '  </testsuite>',
    );
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
