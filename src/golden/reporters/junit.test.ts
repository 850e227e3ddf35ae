// The JUnit report read back by a real consumer (junit2json, xml2js over sax in strict mode): what a
// CI system would see of suites, counts, names, times and failure text.
import { describe, expect, test } from 'bun:test';
import { parse, type TestSuites } from 'junit2json';
import type { Location, PlacedDifference } from '../../compare/types.ts';
import type { CaseResult, CheckReport } from '../run.ts';
import { junitReport, xmlEscape } from './junit.ts';
import { failureText, type FailedCase } from './text.ts';

const AT = new Date('2024-05-01T12:00:00.250Z');
const RUN = { fixture: 'fixtures/vault & co.json', goldens: ['golden/traces', 'golden/one.io.json', 'golden/empty'] };

/** The text reports print a difference's texts, given here; its location is not read. */
const NOWHERE: Location = { steps: [], places: [], field: { steps: [] } };
const diff = (where: string, field: string, expected: string, got: string, extra: Partial<PlacedDifference> = {}): PlacedDifference => ({
  path: `$.result[0].${field}`, where, field, expected, got, location: NOWHERE, ...extra,
});

const FAIL: FailedCase = {
  status: 'fail', name: 'trace <tx> & "calls" \'1\'', file: '/repo/golden/traces/a&b <1>.io.json', golden: 'golden/traces',
  methods: ['debug_traceTransaction'], layout: 'io', timeMs: 12.3456,
  differences: [
    diff('tx 0 (0xab12…) › CALL Vault.deposit(amount: 5)', 'gasUsed', '"0x1"', '"0x2"', { note: 'a, b: 100% "quoted"\ttab\r\nCRLF' }),
    diff('tx 0 (0xab12…) › CALL Vault.deposit(amount: 5)', 'output', '"0x00…01"', '"0x00…02"', {
      words: [{ offset: 32, expected: '0x01', got: '0x02' }],
      decoded: { expected: 'Error("fox 🦊 <ok>")', got: 'Error("fox 🦊 &gone")' },
    }),
    diff('tx 1 (0xcd34…)', 'logs[0].data', '"a"', 'missing'),
  ],
};
// Characters XML 1.0 cannot carry at all: a C0 control, DEL-range C1 is fine, a lone surrogate.
const CONTROL: FailedCase = {
  ...FAIL, name: 'control chars', file: 'golden/one.io.json', golden: 'golden/one.io.json', timeMs: 1,
  differences: [diff('response', 'error.message', '"bell\u0007"', '"half \uD83E"')],
};
const PASS: CaseResult = { status: 'pass', name: 'eth_call ok', file: 'golden/traces/ok.io.json', golden: 'golden/traces', methods: ['eth_call'], layout: 'io', timeMs: 0.6 };
const SKIP: Extract<CaseResult, { status: 'skip' }> = { status: 'skip', name: 'no answer', file: 'golden/traces/s.json', golden: 'golden/traces', methods: [], reason: 'recorded "error" <none> & no result:\n\tline two' };

const reportOf = (cases: CaseResult[]): CheckReport => ({
  mode: 'bytes', cases,
  passed: cases.filter((c) => c.status === 'pass').length,
  failed: cases.filter((c) => c.status === 'fail').length,
  skipped: cases.filter((c) => c.status === 'skip').length,
});

const read = async (xml: string): Promise<TestSuites> => (await parse(xml)) as TestSuites;
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

describe('junitReport', () => {
  test('suites per GOLDEN argument with counts, names, classnames, files and times', async () => {
    const xml = junitReport(reportOf([PASS, FAIL, SKIP, CONTROL]), RUN, AT);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
    const doc = await read(xml);
    expect(doc).toMatchObject({ name: 'blocktrace check', tests: 4, failures: 2, errors: 0, time: 0.014 });
    expect(doc.testsuite!.map((s) => [s.name, s.tests, s.failures, s.skipped, s.errors, s.time, s.timestamp])).toEqual([
      ['golden/traces', 3, 1, 1, 0, 0.013, '2024-05-01T12:00:00'],
      ['golden/one.io.json', 1, 1, 0, 0, 0.001, '2024-05-01T12:00:00'],
      ['golden/empty', 0, 0, 0, 0, 0, '2024-05-01T12:00:00'],
    ]);
    expect(doc.testsuite![0]!.properties).toEqual([{ name: 'fixture', value: RUN.fixture }, { name: 'mode', value: 'bytes' }]);
    const cases = doc.testsuite![0]!.testcase!;
    // Report order kept; `file` is not in junit2json's type but is read like any attribute.
    expect(cases.map((c) => [c.name, c.classname, (c as { file?: string }).file, c.time])).toEqual([
      [PASS.name, 'golden/traces', PASS.file, 0.001],
      [FAIL.name, 'golden/traces', FAIL.file, 0.012],
      [SKIP.name, 'golden/traces', SKIP.file, 0],
    ]);
    expect(cases[0]!.failure).toBeUndefined();
    expect(cases[0]!.skipped).toBeUndefined();
    expect(cases[2]!.skipped).toEqual([{ message: SKIP.reason }]);
  });

  test('the failure carries every grouped difference, byte for byte', async () => {
    const doc = await read(junitReport(reportOf([FAIL]), RUN, AT));
    const failure = doc.testsuite![0]!.testcase![0]!.failure!;
    expect(failure).toEqual([{ message: '3 differences; first at $.result[0].gasUsed', type: 'mismatch', inner: failureText(FAIL) }]);
    // The text is the story, not just its first line: both headings and the decoded revert.
    expect(failure[0]!.inner).toContain('tx 1 (0xcd34…)');
    expect(failure[0]!.inner).toContain('Error("fox 🦊 &gone")');
    expect(failure[0]!.inner).toContain('\r\nCRLF');
  });

  test('characters XML cannot hold become U+FFFD; the rest of the document is intact', async () => {
    const xml = junitReport(reportOf([CONTROL]), RUN, AT);
    expect(xml).not.toMatch(NOT_XML_CHAR);
    const doc = await read(xml);
    const failure = doc.testsuite![1]!.testcase![0]!.failure![0]!;
    expect(failure.inner).toBe(failureText(CONTROL).replace('\u0007', '\uFFFD').replace('\uD83E', '\uFFFD'));
    expect(failure.message).toBe('1 difference; first at $.result[0].error.message');
  });

  // sax keeps raw whitespace in attributes and CR LF in text, so the round trips above cannot catch a
  // missing reference; a conforming parser (Jenkins' Java one) would turn them into spaces and LF.
  test('xmlEscape: attributes keep whitespace as references, text keeps tabs and newlines', () => {
    expect(xmlEscape('a<b>&"\'\t\n\r', true)).toBe('a&lt;b&gt;&amp;&quot;&apos;&#9;&#10;&#13;');
    expect(xmlEscape('a<b>&"\'\t\n\r', false)).toBe('a&lt;b&gt;&amp;"\'\t\n&#13;');
    expect(xmlEscape('🦊\u0000\uFFFE\uDC00', false)).toBe('🦊\uFFFD\uFFFD\uFFFD');
  });

  test('an empty report: one empty suite per argument, and none without arguments', async () => {
    const empty = await read(junitReport(reportOf([]), { fixture: 'f', goldens: ['golden'] }, AT));
    expect(empty).toMatchObject({ tests: 0, failures: 0, time: 0 });
    expect(empty.testsuite!.map((s) => [s.name, s.tests, s.testcase])).toEqual([['golden', 0, undefined]]);
    const none = await read(junitReport(reportOf([]), { fixture: 'f', goldens: [] }, AT));
    expect(none).toMatchObject({ name: 'blocktrace check', tests: 0 });
    expect(none.testsuite).toBeUndefined();
  });

  test('only passes: no failure or skipped element anywhere', async () => {
    const other: CaseResult = { ...PASS, name: 'second', golden: 'golden/one.io.json', timeMs: 2000 };
    const xml = junitReport(reportOf([PASS, other]), RUN, AT);
    expect(xml).not.toContain('<failure');
    expect(xml).not.toContain('<skipped');
    const doc = await read(xml);
    expect(doc).toMatchObject({ tests: 2, failures: 0, skipped: 0, time: 2.001 });
    expect(doc.testsuite!.map((s) => s.testcase?.map((c) => [c.name, c.time]))).toEqual([[['eth_call ok', 0.001]], [['second', 2]], undefined]);
  });

  test('a case under a GOLDEN not among the arguments still gets a suite', async () => {
    const stray: CaseResult = { ...PASS, golden: 'elsewhere' };
    const doc = await read(junitReport(reportOf([stray]), { fixture: 'f', goldens: ['golden'] }, AT));
    expect(doc.testsuite!.map((s) => [s.name, s.tests])).toEqual([['golden', 0], ['elsewhere', 1]]);
  });
});
