import { expect, test } from 'bun:test';
import { parseGoldenCommand, type CheckCommand, type GoldenCommand, type RecordCommand } from './goldenArgs.ts';

const check = (over: Partial<CheckCommand> = {}): CheckCommand => ({
  kind: 'check', fixture: 'f.json', goldens: ['g'], mode: 'bytes', reporter: 'text', filters: [], ignores: [], abiDirs: [], update: false, ...over,
});
const record = (over: Partial<RecordCommand> = {}): RecordCommand => ({ kind: 'record', fixture: 'f.json', requests: 'r', out: 'd', filters: [], compact: false, ...over });

const TABLE: readonly (readonly [readonly string[], GoldenCommand | 'usage'])[] = [
  [['check', 'f.json', 'g'], check()],
  [['check', '--semantic', 'f.json', 'g1', '--json', 'g2', '--filter', 'trace_block', '--filter=x'], check({ goldens: ['g1', 'g2'], mode: 'semantic', reporter: 'json', filters: ['trace_block', 'x'] })],
  [['check', 'f.json', '--', '-g'], check({ goldens: ['-g'] })],
  [['record', 'f.json', 'reqs.txt', '--out', 'd'], record({ requests: 'reqs.txt' })],
  [['record', '--out=d', 'f.json', 'r', '--filter', 'eth_chainId'], record({ filters: ['eth_chainId'] })],
  [['record', 'f.json', 'r', '--out', 'd', '--compact', '--no-cache'], record({ compact: true, cache: false })],
  [['check', 'f.json', 'g', '--all-tracers'], check({ allTracers: true })],
  [['record', '--all-tracers', 'f.json', 'r', '--out', 'd'], record({ allTracers: true })],
  [
    ['check', 'f.json', 'g', '--ignore', 'blockHash', '--ignore=$.result[*].x', '--abi', 'out', '--abi', 'more', '--reporter', 'junit', '--shard', '2/3', '--update', '--cache', 'c'],
    check({ ignores: ['blockHash', '$.result[*].x'], abiDirs: ['out', 'more'], reporter: 'junit', shard: { index: 2, count: 3 }, update: true, cache: 'c' }),
  ],
  [['check', 'f.json', 'g', '--reporter=github', '--no-cache'], check({ reporter: 'github', cache: false })],
  [['check', 'f.json', 'g', '--reporter', 'json', '--json'], check({ reporter: 'json' })],
  [['check', 'f.json', 'g', '--reporter', 'html'], 'usage'],
  [['check', 'f.json', 'g', '--reporter', 'junit', '--json'], 'usage'],
  [['check', 'f.json', 'g', '--cache', 'c', '--no-cache'], 'usage'],
  [['check', 'f.json', 'g', '--all-tracers=yes'], 'usage'],
  [['check', 'f.json'], 'usage'],
  [['check', 'f.json', 'g', '--filter'], 'usage'],
  [['check', 'f.json', 'g', '--out', 'd'], 'usage'],
  [['check', 'f.json', 'g', '--json=yes'], 'usage'],
  [['check', 'f.json', 'g', '--update=yes'], 'usage'],
  [['record', 'f.json', 'reqs.txt'], 'usage'],
  [['record', 'f.json', '--out', 'd'], 'usage'],
  [['record', 'f.json', 'r', 'extra', '--out', 'd'], 'usage'],
  [['record', 'f.json', 'r', '--out', 'd', '--semantic'], 'usage'],
  [['record', 'f.json', 'r', '--out', 'd', '--update'], 'usage'],
  [['check', 'f.json', 'g', '--compact'], 'usage'],
];

test.each(TABLE)('parseGoldenCommand %j', (argv, expected) => {
  const got = parseGoldenCommand(argv);
  expect(expected === 'usage' ? got.kind : got).toEqual(expected);
});

test('--shard takes I/N with 1 <= I <= N only', () => {
  for (const bad of ['0/3', '4/3', '1/0', '1-3', '1/3/4', 'a/b', '/3', '1/', '01/3', ' 1/3']) {
    const got = parseGoldenCommand(['check', 'f.json', 'g', '--shard', bad]);
    expect(got.kind).toBe('usage');
    if (got.kind === 'usage') expect(got.message).toContain(bad);
  }
  expect(parseGoldenCommand(['check', 'f.json', 'g', '--shard', '3/3'])).toEqual(check({ shard: { index: 3, count: 3 } }));
});
