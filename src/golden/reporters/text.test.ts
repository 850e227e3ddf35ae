import { describe, expect, test } from 'bun:test';
import type { Location, PlacedDifference } from '../../compare/types.ts';
import { differenceLines } from '../../compare/lines.ts';
import { failureText, type FailedCase } from './text.ts';

/** The text reports print a difference's texts, given here; its location is not read. */
const NOWHERE: Location = { steps: [], places: [], field: { steps: [] } };
type Given = Omit<PlacedDifference, 'location'>;

const failed = (differences: Given[]): FailedCase => ({
  status: 'fail', name: 'case', file: 'f.json', golden: 'g', layout: 'pair', methods: ['trace_block'], timeMs: 1,
  differences: differences.map((d) => ({ ...d, location: NOWHERE })),
});

test('every difference under its heading, in order; words, meanings, notes and the path', () => {
  const text = failureText(failed([
    { path: '$.a', where: 'tx 0 (0x12…)', field: 'a', expected: '1', got: '2' },
    { path: '$.b', where: 'tx 1 (0x34…)', field: 'data', expected: '"0x…"', got: '"0x…"', words: [{ offset: 32, expected: '0x01', got: '0x02' }], decoded: { expected: 'E(1)', got: 'E(2)' } },
    { path: '$.c', where: 'tx 0 (0x12…)', field: 'c', expected: '[1]', got: '[2]', note: 'why' },
  ]));
  expect(text).toBe([
    'FAIL case  (f.json)',
    '  3 differences',
    '  tx 0 (0x12…)',
    '    a', '      expected: 1', '      got:      2', '      at $.a',
    '    c', '      expected: [1]', '      got:      [2]', '                 ^', '      (why)', '      at $.c',
    '  tx 1 (0x34…)',
    '    data', '      1 word of 32 bytes differ (offsets in bytes):', '        @32', '          expected: 0x01', '          got:      0x02', '                       ^',
    '      expected means: E(1)', '      got means:      E(2)', '      at $.b',
  ].join('\n'));
});

test('a large value the other side lacks is cut with its length; values on both sides stay whole', () => {
  const big = `{"calls":[${'1,'.repeat(5000)}1]}`;
  const cut = failureText(failed([{ path: '$.x', where: 'w', field: 'x', expected: big, got: 'missing' }]));
  expect(cut).toContain(`expected: ${big.slice(0, 2000)}… (10,013 characters; --reporter json has it whole)\n`);
  const both = failureText(failed([{ path: '$.x', where: 'w', field: 'x', expected: big, got: `${big} ` }]));
  expect(both).toContain(`expected: ${big}\n`);
});

describe('the characters that differ are marked with carets, which a log without colour keeps', () => {
  const lines = (d: Omit<Given, 'where'>, sides?: readonly [string, string]): string[] => differenceLines({ where: 'w', location: NOWHERE, ...d }, '', sides);

  test('one digit inside a hash: one caret line under both, on its column', () => {
    const hash = (digit: string): string => `"0x9bc3e7c3bf61e31b8163${digit}dbb14a8fd1b993d55d1853657681aaf6bca2b1879fc"`;
    expect(lines({ path: '$.result[0].blockHash', field: 'blockHash', expected: hash('3'), got: hash('4') })).toEqual([
      'blockHash',
      `  expected: ${hash('3')}`,
      `  got:      ${hash('4')}`,
      `            ${' '.repeat(23)}^`,
      '  at $.result[0].blockHash',
    ]);
  });

  test('characters only one side has: a caret line under each side with characters of its own to mark', () => {
    expect(lines({ path: '$.e', field: 'error', expected: '"out of gas: 10 of 100"', got: '"out of gas: 9 of 100"' })).toEqual([
      'error',
      '  expected: "out of gas: 10 of 100"',
      '                         ^^',
      '  got:      "out of gas: 9 of 100"',
      '                         ^',
      '  at $.e',
    ]);
    // only inserted: nothing of the recording's to mark
    expect(lines({ path: '$.e', field: 'revertReason', expected: '"user error"', got: '"user errorr"' }).slice(1, 4)).toEqual(['  expected: "user error"', '  got:      "user errorr"', '                       ^']);
  });

  test('the sides of diff (A and B) keep the columns', () => {
    expect(lines({ path: '$.x', field: 'x', expected: '"0x0bb8"', got: '"0x09c4"' }, ['A', 'B']).slice(1, 4)).toEqual(['  A: "0x0bb8"', '  B: "0x09c4"', '         ^^^']);
  });

  test('values that share nothing, or a side that is missing, get no carets', () => {
    expect(lines({ path: '$.a', field: 'a', expected: '1', got: '2' })).toHaveLength(4);
    expect(lines({ path: '$.a', field: 'a', expected: '"0x1"', got: 'missing' })).toHaveLength(4);
  });

  test('gas: the hex as answered, then decimal with its change; a missing side has no change', () => {
    expect(lines({ path: '$.result.gasUsed', field: 'gasUsed', expected: '"0x5208"', got: '"0x5a3c"', quantity: 'gas' })).toEqual([
      'gasUsed',
      '  expected: "0x5208"',
      '  got:      "0x5a3c"',
      '  gas:      21,000 → 23,100 (+2,100)',
      '  at $.result.gasUsed',
    ]);
    expect(lines({ path: '$.structLogs[3].gasCost', field: 'gasCost', expected: '3', got: '2', quantity: 'gas' }, ['A', 'B'])[3]).toBe('  gas: 3 → 2 (-1)');
    expect(lines({ path: '$.result.gas', field: 'gas', expected: '"0x5208"', got: 'missing', quantity: 'gas' })).toHaveLength(4);
  });

  test('a pair too long to point at: whole, then where it differs with the long equal runs cut and counted', () => {
    const value = (x: string): string => `{"input":"0x${'ab'.repeat(100)}","output":"0x${x}${'00'.repeat(60)}"}`;
    const out = lines({ path: '$.r', field: 'result', expected: value('01'), got: value('02') });
    expect(out).toEqual([
      'result',
      `  expected: ${value('01')}`,
      `  got:      ${value('02')}`,
      '  where they differ (long equal runs cut):',
      `    expected: …(211 equal)…b","output":"0x010000000000000000…(106 equal)…`,
      `    got:      …(211 equal)…b","output":"0x020000000000000000…(106 equal)…`,
      `              ${' '.repeat('…(211 equal)…b","output":"0x0'.length)}^`,
      '  at $.r',
    ]);
  });
});
