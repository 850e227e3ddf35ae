// The long-chain section of `npm run bench` (issue 37): generated fixtures of 10,000 and 100,000
// transactions (bench/generate.ts, 100 a block, made once per machine under the temporary
// directory; 1,000,000 with --million), each served as a user would: the first start (replay →
// first answer) and its peak RSS (VmHWM), the snapshot's size, the second start (from the snapshot),
// the serving RSS, and a whole-chain eth_getLogs (time, its answer or -32003, RSS before, after, and
// two seconds later). At 100,000, anvil 1.7.1 sending and mining the same transactions beside it.
// Prints one JSON line on stdout; progress on stderr.
//
// It runs the source (bun src/cli.ts), so the figures are the tree's whatever the binary was built from.
//
//   bun bench/longChain.ts [--million | --only-million] [--no-anvil]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { loadFixtureFile } from './generate.ts';
import { senderKey } from './generate/spec.ts';
import { anvilOnGenerated } from './generated.ts';
import { freePort, rssMB } from './procs.ts';

export interface LongChainRun {
  readonly txs: number;
  readonly generateMs: number;
  readonly firstStartMs: number;
  readonly firstPeakMB: number;
  /** The same once its snapshot is written (just after the first answer). */
  readonly firstPeakWithSnapshotMB: number;
  readonly snapshotMB: number;
  readonly secondStartMs: number;
  readonly servingMB: number;
  readonly getLogsMs: number;
  /** The answer's bytes, or -32003 when it passed --max-response. */
  readonly getLogsAnswer: number | 'response too large';
  readonly getLogsRssMB: readonly [before: number, after: number, later: number];
  /** The other requests of the list, in order after the eth_getLogs: each one's time and answer (bytes or its error code). */
  readonly requests: readonly { readonly name: string; readonly ms: number; readonly answer: number | string }[];
  /** RSS after them all, and two seconds later. */
  readonly requestsRssMB: readonly [after: number, later: number];
  /** anvil sending and mining the same transactions (100,000 only). */
  readonly anvilMs?: number;
}

const ROOT = resolve(import.meta.dir, '..');
const log = (line: string): void => void process.stderr.write(`bench long chain: ${line}\n`);
const post = async (url: string, body: string): Promise<string> => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

/** `serve FIXTURE` until it has loaded (GET /health is 200, not the 503 of a load); the process, its URL and how long that took. */
async function start(fixture: string, cache: string): Promise<{ proc: Bun.Subprocess; url: string; ms: number }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const started = performance.now();
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), 'serve', fixture, '--port', String(port), '--cache', cache, '--trace-timeout', '0'], { cwd: ROOT, stdout: 'ignore', stderr: 'ignore' });
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`serve ${fixture} exited ${proc.exitCode}`);
    try {
      if ((await fetch(`${url}health`)).status === 200) return { proc, url, ms: performance.now() - started };
    } catch {
      // not listening yet
    }
    await Bun.sleep(20);
  }
}

async function stop(proc: Bun.Subprocess): Promise<void> {
  proc.kill('SIGKILL');
  await proc.exited;
}

/**
 * The whole-chain and old-state requests after the eth_getLogs, on a chain of `blocks` blocks: the
 * Otterscan search, trace_filter over the whole chain (refused past 100 blocks) and the last 100, a trace and a proof at block 1 (its state
 * read by history, and written out as a trie for the proof), a proof at the head (the whole state
 * written out), a balance at the middle block.
 */
function longChainRequests(blocks: number): [string, string][] {
  const req = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  // the generator's first sender (bench/generate/spec.ts): in every block
  const sender = bytesToHex(privateToAddress(senderKey(0)));
  const middle = `0x${Math.floor(blocks / 2).toString(16)}`;
  // trace_filter takes block numbers only, and 100 blocks at most, as reth's does (a whole chain is -32602)
  const head = `0x${blocks.toString(16)}`;
  const last100 = `0x${(blocks - 100).toString(16)}`;
  return [
    ['trace_filter, the whole chain, count 10 (-32602: over 100 blocks, as reth)', req('trace_filter', [{ fromBlock: '0x0', toBlock: head, count: 10 }])],
    ['trace_filter, the last 100 blocks, count 10', req('trace_filter', [{ fromBlock: last100, toBlock: head, count: 10 }])],
    ['trace_filter, the last 100 blocks', req('trace_filter', [{ fromBlock: last100, toBlock: head }])],
    ['ots_searchTransactionsBefore, a sender, page of 25', req('ots_searchTransactionsBefore', [sender, 0, 25])],
    ['debug_traceBlockByNumber block 1, prestateTracer', req('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }])],
    ['eth_getProof at block 1', req('eth_getProof', [sender, [], '0x1'])],
    ['eth_getProof at the head (its whole state written out as a trie)', req('eth_getProof', [sender, [], head])],
    [`eth_getBalance at block ${middle}`, req('eth_getBalance', [sender, middle])],
  ];
}

async function measure(txs: number, withAnvil: boolean): Promise<LongChainRun> {
  const started = performance.now();
  const fixture = await loadFixtureFile(join(tmpdir(), 'blocktrace-bench', `long-${txs}-v1.json`), txs, 100);
  const generateMs = performance.now() - started;
  const cache = mkdtempSync(join(tmpdir(), 'blocktrace-bench-long-'));
  try {
    log(`${txs} transactions: first start`);
    const first = await start(fixture, cache);
    const firstPeakMB = rssMB(first.proc.pid, 'VmHWM');
    // the snapshot is written just after the first answers (src/cache/forFixture.ts)
    for (let waited = 0; !readdirSync(cache).some((f) => f.endsWith('.snap')) && waited < 600_000; waited += 50) await Bun.sleep(50);
    const firstPeakWithSnapshotMB = rssMB(first.proc.pid, 'VmHWM');
    await stop(first.proc);
    const snapshot = readdirSync(cache).find((f) => f.endsWith('.snap'))!;
    log(`${txs} transactions: second start, eth_getLogs`);
    const second = await start(fixture, cache);
    try {
      const servingMB = rssMB(second.proc.pid);
      const before = rssMB(second.proc.pid);
      const t = performance.now();
      const answer = await post(second.url, '{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"0x0","toBlock":"latest"}]}');
      const getLogsMs = performance.now() - t;
      const after = rssMB(second.proc.pid);
      await Bun.sleep(2000);
      const later = rssMB(second.proc.pid);
      const requests = [];
      for (const [name, body] of longChainRequests(txs / 100)) {
        const t0 = performance.now();
        const text = await post(second.url, body);
        const code = /"error":\{"code":(-?\d+)/.exec(text)?.[1];
        requests.push({ name, ms: performance.now() - t0, answer: code === undefined ? text.length : `error ${code}` });
      }
      const requestsAfter = rssMB(second.proc.pid);
      await Bun.sleep(2000);
      const run: LongChainRun = {
        txs, generateMs, firstStartMs: first.ms, firstPeakMB, firstPeakWithSnapshotMB, snapshotMB: statSync(join(cache, snapshot)).size / 1e6, secondStartMs: second.ms, servingMB,
        getLogsMs, getLogsAnswer: answer.includes('"code":-32003') ? 'response too large' : answer.length, getLogsRssMB: [before, after, later],
        requests, requestsRssMB: [requestsAfter, rssMB(second.proc.pid)],
      };
      if (!withAnvil) return run;
      log(`${txs} transactions: anvil sends and mines them`);
      return { ...run, anvilMs: (await anvilOnGenerated(fixture, ROOT)).totalMs };
    } finally {
      await stop(second.proc);
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

export async function longChain(million: boolean, anvil = true, onlyMillion = false): Promise<LongChainRun[]> {
  const runs = onlyMillion ? [] : [await measure(10_000, false), await measure(100_000, anvil)];
  if (million || onlyMillion) runs.push(await measure(1_000_000, false));
  return runs;
}

if (import.meta.main) {
  const argv = process.argv;
  process.stdout.write(`${JSON.stringify(await longChain(argv.includes('--million'), !argv.includes('--no-anvil'), argv.includes('--only-million')))}\n`);
}
