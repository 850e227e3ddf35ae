import { expect, test } from 'bun:test';
import { parseGoldenCommand, type GoldenCommand } from './goldenArgs.ts';

const TABLE: readonly (readonly [readonly string[], GoldenCommand | 'usage'])[] = [
  [['check', 'f.json', 'g'], { kind: 'check', fixture: 'f.json', goldens: ['g'], mode: 'bytes', json: false, filters: [] }],
  [
    ['check', '--semantic', 'f.json', 'g1', '--json', 'g2', '--filter', 'trace_block', '--filter=x'],
    { kind: 'check', fixture: 'f.json', goldens: ['g1', 'g2'], mode: 'semantic', json: true, filters: ['trace_block', 'x'] },
  ],
  [['check', 'f.json', '--', '-g'], { kind: 'check', fixture: 'f.json', goldens: ['-g'], mode: 'bytes', json: false, filters: [] }],
  [['record', 'f.json', 'reqs.txt', '--out', 'dir'], { kind: 'record', fixture: 'f.json', requests: 'reqs.txt', out: 'dir', filters: [] }],
  [['record', '--out=dir', 'f.json', 'g', '--filter', 'eth_chainId'], { kind: 'record', fixture: 'f.json', requests: 'g', out: 'dir', filters: ['eth_chainId'] }],
  [['check', 'f.json', 'g', '--all-tracers'], { kind: 'check', fixture: 'f.json', goldens: ['g'], mode: 'bytes', json: false, filters: [], allTracers: true }],
  [['record', '--all-tracers', 'f.json', 'r', '--out', 'd'], { kind: 'record', fixture: 'f.json', requests: 'r', out: 'd', filters: [], allTracers: true }],
  [['check', 'f.json', 'g', '--all-tracers=yes'], 'usage'],
  [['check', 'f.json'], 'usage'],
  [['check', 'f.json', 'g', '--filter'], 'usage'],
  [['check', 'f.json', 'g', '--out', 'd'], 'usage'],
  [['check', 'f.json', 'g', '--json=yes'], 'usage'],
  [['record', 'f.json', 'reqs.txt'], 'usage'],
  [['record', 'f.json', '--out', 'd'], 'usage'],
  [['record', 'f.json', 'r', 'extra', '--out', 'd'], 'usage'],
  [['record', 'f.json', 'r', '--out', 'd', '--semantic'], 'usage'],
];

for (const [argv, expected] of TABLE) {
  test(`parseGoldenCommand ${JSON.stringify(argv)}`, () => {
    const got = parseGoldenCommand(argv);
    if (expected === 'usage') expect(got.kind).toBe('usage');
    else expect(got).toEqual(expected);
  });
}
