// Many processes, one cache (issue 50, item 3): four processes started at once on one fixture and
// one empty cache directory answer the same bytes and leave one whole snapshot; and a server that
// started from a snapshot keeps answering after the cache's size cap has removed that file (another
// process's write evicted it): a snapshot is mapped or read whole, and an unlink leaves a mapping as
// it was (src/cache/mapFile.ts), so what the server reads of it later (state history, recordings,
// receipts, the log table) is still there. Real processes on 127.0.0.1.
import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild, stopAll } from '../bench/procs.ts';
import { fixtureKey } from '../src/cache/fixtureKey.ts';
import { decodeSnapshot } from '../src/cache/snapshot.ts';
import { BODIES, BUN, CLI, PRAGUE, ROOT, runHarness } from './faces.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-many-'));
afterAll(async () => {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
});

const r = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 7, method, params });
/** BODIES and reads of state, logs and receipts, which a start from a snapshot takes from the file only when first asked. */
const REQUESTS = [
  ...BODIES,
  r('eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x2']),
  r('eth_getStorageAt', ['0x5fbdb2315678afecb367f032d93f642f64180aa3', '0x0', '0x4']),
  r('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]),
  r('eth_getBlockReceipts', ['0x3']),
  r('debug_traceBlockByNumber', ['0x5', { tracer: 'prestateTracer' }]),
];

let expected: string[];
const reference = async (): Promise<string[]> => {
  expected ??= (await runHarness(['--replay-file', PRAGUE, '--no-cache', '--', ...REQUESTS])).stdout.split('\n').slice(0, -1);
  return expected;
};

test('four processes started at once on one fixture and an empty cache: the same bytes, one whole snapshot, no temporary file', async () => {
  const dir = join(work, 'four');
  const want = await reference();
  expect(want.length).toBe(REQUESTS.length);
  const runs = await Promise.all([0, 1, 2, 3].map(() => runHarness(['--replay-file', PRAGUE, '--cache', dir, '--', ...REQUESTS])));
  for (const run of runs) expect({ code: run.code, lines: run.stdout.split('\n').slice(0, -1) }).toEqual({ code: 0, lines: want });
  const files = readdirSync(dir);
  expect(files).toEqual([`${fixtureKey(PRAGUE)}.snap`]);
  expect(typeof decodeSnapshot(readFileSync(join(dir, files[0]!)), fixtureKey(PRAGUE))).toBe('object');
}, 120_000);

test('a server started from a snapshot that the size cap then removes (another fixture written with --cache-max 1) answers as a fresh replay does', async () => {
  const dir = join(work, 'evicted');
  const want = await reference();
  await runHarness(['--replay-file', PRAGUE, '--cache', dir, REQUESTS[0]!]);
  const snapshot = join(dir, `${fixtureKey(PRAGUE)}.snap`);
  expect(existsSync(snapshot)).toBe(true);
  const server = spawnChild('serve', [BUN, CLI, 'serve', PRAGUE, '--port', '0', '--cache', dir, '--no-ui'], ROOT);
  const url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/, 60_000))[1]!;
  await server.waitFor(/^chain /m, 60_000);
  // the same chain under another key (a member no loader reads), written with a cap of one byte:
  // every snapshot but the one just written goes
  const other = join(work, 'other.json');
  writeFileSync(other, JSON.stringify({ ...JSON.parse(readFileSync(PRAGUE, 'utf8')), padding: 'x' }));
  const evictor = await runHarness(['--replay-file', other, '--cache', dir, '--cache-max', '1', REQUESTS[0]!]);
  expect(evictor.code).toBe(0);
  expect(existsSync(snapshot)).toBe(false);
  expect(readdirSync(dir)).toEqual([`${fixtureKey(other)}.snap`]);
  const got: string[] = [];
  for (const body of REQUESTS) got.push(await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text());
  expect(got).toEqual(want);
  await server.stop();
}, 120_000);
