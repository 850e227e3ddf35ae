// The workflow commands read back as the Actions runner reads them (ActionCommand.TryParse in
// actions/runner): `::name k=v,k=v::message`, the first `::` after the name ends the properties,
// `,` and the first `=` split them, and the escapes are undone with `%25` last.
import { describe, expect, test } from 'bun:test';
import type { Location, PlacedDifference } from '../../compare/types.ts';
import type { CaseResult, CheckReport } from '../run.ts';
import { annotationPath, githubReport } from './github.ts';
import { failureText, textReport, type FailedCase } from './text.ts';

interface Command {
  readonly name: string;
  readonly properties: Record<string, string>;
  readonly message: string;
}

const unescapeData = (s: string): string => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string): string =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

/** One log line as a command, or undefined when it is plain text. */
function parseCommand(line: string): Command | undefined {
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end < 0) return undefined;
  const head = line.slice(2, end);
  const space = head.indexOf(' ');
  const name = space < 0 ? head : head.slice(0, space);
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of head.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { name, properties, message: unescapeData(line.slice(end + 2)) };
}

const CWD = '/home/runner/work/app';
/** The text reports print a difference's texts, given here; its location is not read. */
const NOWHERE: Location = { steps: [], places: [], field: { steps: [] } };
const diff = (where: string, field: string, expected: string, got: string, extra: Partial<PlacedDifference> = {}): PlacedDifference => ({
  path: `$.result.${field}`, where, field, expected, got, location: NOWHERE, ...extra,
});
const FAIL: FailedCase = {
  status: 'fail', name: 'Vault::deposit a,b <c> & "d" 100%', file: `${CWD}/golden/x: y, z%.io.json`, golden: 'golden',
  methods: ['debug_traceTransaction'], layout: 'io', timeMs: 3,
  differences: [
    diff('tx 0 (0xab…) › CALL Vault.deposit(amount: 5)', 'gas', '"0x1"', '"0x2"', { note: 'line\r\nbreak, 50% :: done' }),
    diff('tx 0 (0xab…) › CALL Vault.deposit(amount: 5)', 'output', '"0x…01"', '"0x…02"', { decoded: { expected: 'Error("🦊")', got: 'Error("%0A")' } }),
    diff('tx 2 (0xcd…)', 'logs[0]', '{"a":1}', 'missing'),
  ],
};
const OUTSIDE: FailedCase = { ...FAIL, name: 'outside', file: '/elsewhere/g.json', differences: [diff('response', '$', '1', '2', { path: '$' })] };
const PASS: CaseResult = { status: 'pass', name: 'ok', file: 'golden/ok.json', golden: 'golden', methods: [], layout: 'io', timeMs: 1 };
const SKIP: Extract<CaseResult, { status: 'skip' }> = {
  status: 'skip', name: 'skipped, one', file: 'golden/s.json', golden: 'golden', methods: [], reason: 'recorded an error:\nno result 100%',
};

const reportOf = (cases: CaseResult[]): CheckReport => ({
  mode: 'semantic', cases,
  passed: cases.filter((c) => c.status === 'pass').length,
  failed: cases.filter((c) => c.status === 'fail').length,
  skipped: cases.filter((c) => c.status === 'skip').length,
});
const RUN = { fixture: 'f.json', goldens: ['golden'], cwd: CWD };
const linesOf = (out: string): string[] => {
  expect(out.endsWith('\n')).toBe(true);
  return out.slice(0, -1).split('\n');
};

describe('githubReport', () => {
  test('one ::error per failure, one ::notice per skip, then the text report for the log', () => {
    const report = reportOf([PASS, FAIL, SKIP, OUTSIDE]);
    const out = githubReport(report, RUN);
    const lines = linesOf(out);
    expect(out.endsWith(textReport(report))).toBe(true);
    expect(lines.at(-1)).toBe('1 passed, 2 failed, 1 skipped');
    expect(lines.filter((l) => l.startsWith('::')).length).toBe(3);
    expect(lines.slice(0, 3).map(parseCommand)).toEqual([
      {
        name: 'error',
        properties: { file: 'golden/x: y, z%.io.json', title: `check: ${FAIL.name}` },
        message: failureText(FAIL).split('\n').slice(1).join('\n'),
      },
      { name: 'notice', properties: { file: SKIP.file, title: `check skipped: ${SKIP.name}` }, message: SKIP.reason },
      { name: 'error', properties: { file: '/elsewhere/g.json', title: 'check: outside' }, message: '  1 difference\n  response\n    $\n      expected: 1\n      got:      2\n      at $' },
    ]);
  });

  test('the message is every grouped difference, awkward characters intact', () => {
    const message = parseCommand(linesOf(githubReport(reportOf([FAIL]), RUN))[0]!)!.message;
    expect(message.split('\n')[0]).toBe('  3 differences');
    expect(message).toContain('  tx 2 (0xcd…)\n    logs[0]');
    expect(message).toContain('(line\r\nbreak, 50% :: done)');
    expect(message).toContain('got means:      Error("%0A")');
    expect(message).toContain('Error("🦊")');
  });

  test('an empty report and a report of passes are the summary alone', () => {
    expect(githubReport(reportOf([]), RUN)).toBe('0 passed, 0 failed\n');
    expect(githubReport(reportOf([PASS, { ...PASS, name: 'two' }]), RUN)).toBe('2 passed, 0 failed\n');
  });

  test('the cwd defaults to the process one', () => {
    const file = `${process.cwd()}/golden/a.json`;
    const out = githubReport(reportOf([{ ...OUTSIDE, file }]), { fixture: 'f', goldens: [] });
    expect(parseCommand(out.split('\n')[0]!)!.properties['file']).toBe('golden/a.json');
  });
});

describe('annotationPath', () => {
  test.each([
    ['golden/a.json', 'golden/a.json'],
    [`${CWD}/golden/a.json`, 'golden/a.json'],
    [`${CWD}/golden/../b.json`, 'b.json'],
    [`${CWD}2/golden/a.json`, `${CWD}2/golden/a.json`],
    ['/elsewhere/a.json', '/elsewhere/a.json'],
    [CWD, CWD],
  ])('%s', (file, expected) => expect(annotationPath(file, CWD)).toBe(expected));
});
