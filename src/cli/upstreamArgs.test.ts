import { expect, test } from 'bun:test';
import { parseArgs, type CliOptions } from './args.ts';

const URL = 'http://127.0.0.1:8545';
const source = { url: URL, genesis: undefined, timeoutMs: undefined };

const TABLE: readonly (readonly [readonly string[], Partial<CliOptions> | string])[] = [
  [['serve', '--upstream', URL], { kind: 'serve', fixture: undefined, upstream: source }],
  [['serve', '--upstream', URL, '--genesis', 'g.json', '--upstream-timeout', '2s', '--port', '0'], { kind: 'serve', port: 0, upstream: { url: URL, genesis: 'g.json', timeoutMs: 2000 } }],
  [['--upstream', URL], { kind: 'upstream', source, requests: undefined }],
  [['--genesis=g.json', '--upstream', URL, '{"a":1}', '--', '--genesis'], { kind: 'upstream', source: { ...source, genesis: 'g.json' }, requests: ['{"a":1}', '--genesis'] }],
  [['capture', '--rpc', URL, '--block', '5', '--out', 'f.json'], { kind: 'capture', source, from: 5n, to: 5n, out: 'f.json' }],
  [['capture', '--rpc', URL, '--block', '0x5', '--to', '9', '--out', 'f.json', '--upstream-timeout=1m'], { kind: 'capture', source: { ...source, timeoutMs: 60000 }, from: 5n, to: 9n, out: 'f.json' }],
  [['serve', 'f.json', '--upstream', URL], 'not both'],
  [['serve', '--genesis', 'g.json'], 'need --upstream'],
  [['--upstream', 'localhost:8545'], 'not an http(s) URL'],
  [['--host', '0.0.0.0', '--upstream', URL], 'serve options'],
  [['--upstream-timeout', '0', '--upstream', URL], 'must be positive'],
  [['capture', '--rpc', URL, '--block', '9', '--to', '5', '--out', 'f'], 'before --block'],
  [['capture', '--rpc', URL, '--block', '0', '--out', 'f'], 'genesis'],
  [['capture', '--rpc', URL, '--block', 'latest', '--out', 'f'], 'not a block number'],
  [['capture', '--rpc', URL, '--block', '3'], 'needs --out'],
  // diff: each side a fixture or a node, in the order given; the rest are blocks and hashes
  [['diff', 'a.json', '--upstream', URL, '5'], { kind: 'diff', a: 'a.json', b: URL, upstream: [undefined, source], targets: ['5'] }],
  [['diff', '--upstream', URL, 'b.json', '--upstream-timeout', '2s'], { kind: 'diff', a: URL, b: 'b.json', upstream: [{ ...source, timeoutMs: 2000 }, undefined], targets: [] }],
  [['diff', '--upstream', URL, '--upstream', 'https://node.example', '0x5'], { kind: 'diff', a: URL, b: 'https://node.example', upstream: [source, { url: 'https://node.example', genesis: undefined, timeoutMs: undefined }], targets: ['0x5'] }],
  [['diff', 'a.json', 'b.json', '--upstream', URL], 'a third --upstream'],
  [['diff', 'a.json', '--upstream', 'localhost:8545'], 'not an http(s) URL'],
  [['diff', 'a.json', 'b.json', '--upstream-timeout', '1s'], 'needs --upstream URL'],
  [['diff', '--upstream', URL], 'needs two sides'],
];

test.each(TABLE)('%j', (argv, want) => {
  const got = parseArgs(argv);
  if (typeof want === 'string') {
    expect(got.kind).toBe('usage');
    expect((got as { message: string }).message).toContain(want);
  } else {
    expect(got).toMatchObject(want);
  }
});
