import { expect, test } from 'bun:test';
import { DEFAULT_MAX_BODY, parseArgs, type CliOptions } from './args.ts';
import { parseSize } from './values.ts';

const serve = (over: Partial<Extract<CliOptions, { kind: 'serve' }>> = {}): CliOptions => ({
  kind: 'serve',
  fixture: undefined,
  host: '127.0.0.1',
  port: 8545,
  maxBody: DEFAULT_MAX_BODY,
  maxBatch: 100,
  ...over,
});

const TABLE: readonly (readonly [readonly string[], CliOptions | 'usage'])[] = [
  [['serve'], serve()],
  [['serve', 'f.json'], serve({ fixture: 'f.json' })],
  [['serve', 'f.json', '--host', '0.0.0.0', '--port', '0'], serve({ fixture: 'f.json', host: '0.0.0.0', port: 0 })],
  [['serve', '--port=9000', '--max-body=1KiB', '--max-batch', '0'], serve({ port: 9000, maxBody: 1024, maxBatch: 0 })],
  [['--port', '1', 'serve'], serve({ port: 1 })],
  [['serve', 'f.json', '--warm'], serve({ fixture: 'f.json', warm: true })],
  [['--warm', '--replay-file', 'f.json'], 'usage'],
  [['--replay-file', 'f.json'], { kind: 'replay', fixture: 'f.json', requests: undefined, maxBatch: 100 }],
  [['--replay-file=f.json', '{"a":1}', '--', '--help', 'x'], { kind: 'replay', fixture: 'f.json', requests: ['{"a":1}', '--help', 'x'], maxBatch: 100 }],
  // options anywhere: after the fixture and between requests
  [['--replay-file', 'f.json', '--max-batch', '5', '{"a":1}'], { kind: 'replay', fixture: 'f.json', requests: ['{"a":1}'], maxBatch: 5 }],
  [['--replay-file', 'f.json', ' [1]', '--trace-timeout=1s', '{}'], { kind: 'replay', fixture: 'f.json', requests: [' [1]', '{}'], maxBatch: 100, traceTimeoutMs: 1000 }],
  [['--upstream', 'http://127.0.0.1:8546', '--genesis', 'g.json', '{}'], { kind: 'upstream', source: { url: 'http://127.0.0.1:8546', genesis: 'g.json', timeoutMs: undefined }, requests: ['{}'], maxBatch: 100 }],
  [['--replay-file', 'f.json', '--all-tracers', '{}'], { kind: 'replay', fixture: 'f.json', requests: ['{}'], maxBatch: 100, allTracers: true }],
  [['--replay-file', 'f.json', '--all-tracers=1'], 'usage'],
  [['--upstream', 'http://127.0.0.1:8546', '--forward', 'anvil_*', '--forward=evm_mine'], { kind: 'upstream', source: { url: 'http://127.0.0.1:8546', genesis: undefined, timeoutMs: undefined, forward: ['anvil_*', 'evm_mine'] }, requests: undefined, maxBatch: 100 }],
  [['--upstream', 'http://127.0.0.1:8546', '--forward', 'admin_addPeer'], 'usage'],
  [['--upstream', 'http://127.0.0.1:8546', '--forward', 'personal_*'], 'usage'],
  [['--upstream', 'http://127.0.0.1:8546', '--forward', 'debug_setHead'], 'usage'],
  [['--replay-file', 'f.json', '--forward', 'anvil_mine'], 'usage'],
  [['--replay-file', 'f.json', 'nonsense'], 'usage'],
  [['--replay-file', 'f.json', '--bogus', '{}'], 'usage'],
  [['--replay-file', 'f.json', '--max-batch'], 'usage'],
  [['--version'], { kind: 'version' }],
  [['serve', 'f.json', '--version'], { kind: 'version' }],
  [['serve', 'f.json', '{}'], 'usage'],
  [['--genesis', 'g.json', '--replay-file', 'f.json'], 'usage'],
  [['--max-batch', '5', '--replay-file', 'f.json'], { kind: 'replay', fixture: 'f.json', requests: undefined, maxBatch: 5 }],
  [['--help'], { kind: 'help' }],
  [['check', 'f.json', 'g', '--semantic'], { kind: 'check', fixture: 'f.json', goldens: ['g'], mode: 'semantic', reporter: 'text', filters: [], ignores: [], abiDirs: [], update: false }],
  [['record', 'f.json', 'r.txt', '--out', 'd'], { kind: 'record', fixture: 'f.json', requests: 'r.txt', out: 'd', filters: [], compact: false }],
  [['check', 'f.json', 'g', '--help'], { kind: 'help' }],
  [['check', 'f.json'], 'usage'],
  [['serve', '-h'], { kind: 'help' }],
  [[], 'usage'],
  [['serve', 'a', 'b'], 'usage'],
  [['serve', '--port', '70000'], 'usage'],
  [['serve', '--port'], 'usage'],
  [['serve', '--max-body', 'lots'], 'usage'],
  [['serve', '--bogus'], 'usage'],
  [['--host', 'x', '--replay-file', 'f.json'], 'usage'],
  [['--replay-file'], 'usage'],
  [['cache', 'ls'], { kind: 'cache', action: 'ls', dir: undefined }],
  [['cache', 'ls', '--all', '--cache', 'd'], { kind: 'cache', action: 'ls', dir: 'd', all: true }],
  [['cache', 'clear', 'f.json', '--cache=d'], { kind: 'cache', action: 'clear', dir: 'd', fixture: 'f.json' }],
  [['cache', 'clear', '--all'], 'usage'],
];

for (const [argv, expected] of TABLE) {
  test(`parseArgs ${JSON.stringify(argv)}`, () => {
    const got = parseArgs(argv);
    if (expected === 'usage') expect(got.kind).toBe('usage');
    else expect(got).toEqual(expected);
  });
}

test('parseSize', () => {
  expect(parseSize('5MiB')).toBe(5 * 1024 * 1024);
  expect(parseSize('512kib')).toBe(512 * 1024);
  expect(parseSize('1000')).toBe(1000);
  expect(parseSize('1.5KB')).toBe(1500);
  expect(parseSize('0')).toBeUndefined();
  expect(parseSize('5 parsecs')).toBeUndefined();
});
