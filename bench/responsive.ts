// The responsiveness section of `npm run bench` (issue 27's figures, once asserted by timed tests
// in test/responsive.test.ts, test/concurrency.test.ts and test/limits.test.ts, which now assert
// the behaviour alone): a server whose load never leaves the interpreter (bench/pathological.ts
// loopFixture, 290M gas of loop in one transaction) is asked GET /health and eth_blockNumber while it
// loads, then ended by SIGTERM or SIGINT; an idle server is ended by SIGTERM; a server tracing a
// forty-transaction block answers eth_blockNumber meanwhile, and one with --trace-timeout 100ms
// answers "execution timeout" at most a transaction late. Each figure is the worst (or the median)
// of several runs. Loopback only; every process has a deadline and is stopped by its PID.
//
//   bun bench/responsive.ts [--runs N] [--json]
//
// Alone it prints its rows as a Markdown table; with --json (bench/run.ts) one JSON line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loopFixture, slowBlockFixture } from './pathological.ts';
import { type Child, guardChildren, spawnChild } from './procs.ts';
import { body, post } from './rpc.ts';
import { median } from './stats.ts';
import { scriptOptions } from './scriptArgs.ts';
import { markdown, row, type Row } from './table.ts';

const ROOT = resolve(import.meta.dir, '..');
const PRAGUE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
const SOURCE = [process.execPath, 'src/cli.ts'];
const DEADLINE_MS = 10 * 60 * 1000;
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/;
const READY = /^chain .*: chainId \d+/m;
/** Probes of /health during one load, this far apart (a client polling for readiness). */
const PROBES = 15;
const PROBE_GAP_MS = 40;

export interface ResponsiveBench {
  readonly rows: readonly Row[];
  readonly details: Record<string, unknown>;
}

const log = (line: string): void => void process.stderr.write(`bench responsive: ${line}\n`);

async function serve(fixture: string, options: readonly string[] = []): Promise<{ child: Child; url: string }> {
  const child = spawnChild('blocktrace', [...SOURCE, 'serve', fixture, '--port', '0', '--no-cache', ...options], ROOT);
  return { child, url: (await child.waitFor(LISTENING, 120_000))[1]! };
}

/** From the signal to the process's end, and its exit code. */
async function ended(child: Child, signal: 'SIGTERM' | 'SIGINT'): Promise<{ ms: number; code: number }> {
  const start = performance.now();
  process.kill(child.pid, signal);
  const code = await Promise.race([child.exited, Bun.sleep(30_000).then(() => -1)]);
  const ms = performance.now() - start;
  if (code === -1) await child.stop(0);
  return { ms, code };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

export async function responsiveBench(runs: number): Promise<ResponsiveBench> {
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-responsive-'));
  try {
    const loop = join(dir, 'loop.json');
    writeFileSync(loop, JSON.stringify(await loopFixture(290_000_000n)));
    const slow = join(dir, 'slow.json');
    writeFileSync(slow, JSON.stringify(await slowBlockFixture()));

    const health: number[] = [];
    const blockNumber: number[] = [];
    const sigterm: number[] = [];
    const sigint: number[] = [];
    let loadingAnswers = 0;
    for (let run = 0; run < runs; run++) {
      const { child, url } = await serve(loop);
      for (let i = 0; i < PROBES; i++) {
        const [res, ms] = await timed(() => fetch(`${url}health`));
        if (res.status === 503) loadingAnswers++;
        await res.arrayBuffer();
        health.push(ms);
        await Bun.sleep(PROBE_GAP_MS);
      }
      blockNumber.push((await post(url, body('eth_blockNumber', []))).ms);
      sigterm.push((await ended(child, 'SIGTERM')).ms);
      const second = await serve(loop);
      await fetch(`${second.url}health`).then((r) => r.arrayBuffer());
      sigint.push((await ended(second.child, 'SIGINT')).ms);
    }
    log(`loading: ${loadingAnswers} of ${runs * PROBES} /health answers said 503`);

    const idle: number[] = [];
    for (let run = 0; run < runs; run++) {
      const { child, url } = await serve(PRAGUE);
      await child.waitFor(READY, 120_000);
      await fetch(`${url}health`).then((r) => r.arrayBuffer());
      idle.push((await ended(child, 'SIGTERM')).ms);
    }

    const beside: number[] = [];
    const lateness: number[] = [];
    const traceBlock = body('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    for (let run = 0; run < runs; run++) {
      const busy = await serve(slow, ['--trace-timeout', '0']);
      await busy.child.waitFor(READY, 120_000);
      const tracing = post(busy.url, traceBlock);
      await Bun.sleep(20);
      beside.push((await post(busy.url, body('eth_blockNumber', []))).ms);
      await tracing;
      await busy.child.stop();
      const bounded = await serve(slow, ['--trace-timeout', '100ms']);
      await bounded.child.waitFor(READY, 120_000);
      const answer = await post(bounded.url, traceBlock);
      if (!answer.text.includes('execution timeout')) throw new Error(`--trace-timeout 100ms answered ${answer.text.slice(0, 200)}`);
      lateness.push(answer.ms - 100);
      await bounded.child.stop();
    }

    const worst = (xs: readonly number[]): number => Math.max(...xs);
    const med = median;
    const rows: Row[] = [
      row(`responsive: GET /health during a load that never leaves the interpreter (290M gas of loop), slowest of ${runs * PROBES}`, 'ms', worst(health), null, { op: '<', value: 100 }, `median ${med(health).toFixed(1)} ms`),
      row(`responsive: eth_blockNumber during that load, slowest of ${runs}`, 'ms', worst(blockNumber), null, { op: '<', value: 100 }),
      row(`responsive: SIGTERM during that load → exit, slowest of ${runs}`, 'ms', worst(sigterm), null, { op: '<', value: 500 }),
      row(`responsive: SIGINT during that load → exit, slowest of ${runs}`, 'ms', worst(sigint), null, { op: '<', value: 500 }),
      row(`responsive: SIGTERM to an idle server (prague-devnet served) → exit, slowest of ${runs}`, 'ms', worst(idle), null, { op: '<', value: 200 }),
      row(`responsive: eth_blockNumber while a forty-transaction prestate diff trace runs, slowest of ${runs}`, 'ms', worst(beside), null, { op: '<', value: 400 }),
      row(`responsive: --trace-timeout 100ms on that trace: "execution timeout" this late, slowest of ${runs}`, 'ms', worst(lateness), null, { op: '<', value: 1400 }, 'the deadline is checked between transactions'),
    ];
    return { rows, details: { health, blockNumber, sigterm, sigint, idle, beside, lateness, loadingAnswers } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const opts = scriptOptions(process.argv.slice(2), 'responsive.ts', { runs: 3 });
  guardChildren(DEADLINE_MS, log);
  const report = await responsiveBench(opts.runs);
  process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : markdown(report.rows));
}
