import { expect, test } from 'bun:test';
import type { PlacedDifference } from '../../compare/types.ts';
import { failureText, type FailedCase } from './text.ts';

const failed = (differences: PlacedDifference[]): FailedCase => ({
  status: 'fail', name: 'case', file: 'f.json', golden: 'g', layout: 'pair', methods: ['trace_block'], timeMs: 1,
  difference: { path: differences[0]!.path, expected: '', got: '' }, differences,
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
    '    c', '      expected: [1]', '      got:      [2]', '      (why)', '      at $.c',
    '  tx 1 (0x34…)',
    '    data', '      1 word of 32 bytes differ (offsets in bytes):', '        @32', '          expected: 0x01', '          got:      0x02',
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
