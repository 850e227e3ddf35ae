// The source-level debugger's section of `npm run bench`: a 200-transaction block's heaviest
// transaction and a 1,000,000-step loop (bench/fixtures/debugger-bench.json, made by
// test/helpers/debuggerScenario.ts --bench), each
//   - run through `debug FIXTURE HASH --abi DIR --json --only-lines` as a whole process (the chain
//     from its replay snapshot in a cache of the bench's own, as a second command finds it),
//     several times: median wall time (spawn → exit, all of stdout read) and peak RSS (the child's
//     maxrss, from wait4), beside the same fixture's load alone (`--replay-file` answering one
//     eth_blockNumber), whose peak is the baseline of "RSS added";
//   - opened as the viewer does: one `serve … --abi DIR`, ready, then the first
//     blocktrace_debugStep(hash, 0) over HTTP (cold: the transaction replayed, the artifacts read,
//     the steps placed in the sources), timed from the request to the last byte of the answer, and
//     the server's VmRSS before and after it.
// Targets (the issue): ≤ 1 s and ≤ 300 MB added. Loopback only; every process has a deadline and is
// stopped by its PID.
//
//   bun bench/debugger.ts [--runs N] [--json]
//
// Alone it prints its rows as a Markdown table; with --json (bench/run.ts) one JSON line.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBlocktrace } from './blocktrace.ts';
import { guardChildren, rssMB } from './procs.ts';
import { body, call, post } from './rpc.ts';
import { scriptOptions } from './scriptArgs.ts';
import { markdown, row, type Row } from './table.ts';

const ROOT = resolve(import.meta.dir, '..');
const FIXTURE = 'bench/fixtures/debugger-bench.json';
const NAMES = join(ROOT, 'bench/fixtures/debugger-bench.transactions.json');
const ABI = 'golden/debugger/foundry/out';
const SOURCE = [process.execPath, 'src/cli.ts'];
/** One process's deadline: the loop's debug takes seconds, not minutes. */
const PROCESS_TIMEOUT_MS = 180_000;
const DEADLINE_MS = 20 * 60 * 1000;
const MS_TARGET = { op: '<=', value: 1000 } as const;
const MB_TARGET = { op: '<=', value: 300 } as const;

interface Named {
  readonly hash: string;
  readonly block: number;
  readonly index: number;
  readonly call: string;
  readonly gasUsed: number;
}

interface ProcessRun {
  readonly ms: number;
  /** The child's peak resident set, MB (10^6 bytes). */
  readonly peakMB: number;
  readonly stdoutBytes: number;
}

interface Runs {
  readonly command: string;
  readonly medianMs: number;
  readonly medianPeakMB: number;
  readonly stdoutBytes: number;
  readonly runs: readonly ProcessRun[];
}

interface Opened {
  readonly coldMs: number;
  /** The same request again, answered from the server's debugger cache. */
  readonly warmMs: number;
  readonly rssBeforeMB: number;
  readonly rssAfterMB: number;
  /** VmHWM after the request: the server's peak so far, its load included. */
  readonly peakAfterMB: number;
  /** blocktrace_debugTransaction's `steps`. */
  readonly steps: number;
}

export interface DebuggerBench {
  readonly rows: Row[];
  readonly details: {
    readonly fixture: string;
    readonly baseline: Runs;
    readonly transactions: Record<'heaviest' | 'loop', Named & { debug: Runs; viewer: Opened }>;
    readonly serverReadyMs: number;
    /** One-minute load average at the start and at the end (the machine may be shared). */
    readonly loadavg1: readonly [number, number];
  };
}

const log = (line: string): void => void process.stderr.write(`bench debugger: ${line}\n`);
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The process running now, so that a signal or the deadline can stop it by its PID. */
let running: number | undefined;

/** Runs `args` to its end, reading all of stdout; SIGKILL by PID past the timeout. */
async function runOnce(args: readonly string[]): Promise<ProcessRun> {
  const started = performance.now();
  const proc = Bun.spawn([...SOURCE, ...args], { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  running = proc.pid;
  const timer = setTimeout(() => process.kill(proc.pid, 'SIGKILL'), PROCESS_TIMEOUT_MS);
  try {
    let stdoutBytes = 0;
    let head = '';
    const stderr = new Response(proc.stderr).text();
    for await (const chunk of proc.stdout) {
      if (head.length < 16) head += new TextDecoder().decode(chunk.subarray(0, 16));
      stdoutBytes += chunk.length;
    }
    const code = await proc.exited;
    const ms = performance.now() - started;
    if (code !== 0 || !head.startsWith('{')) throw new Error(`${args.join(' ')} exited ${proc.signalCode ?? code}, stdout began ${JSON.stringify(head)}:\n${(await stderr).slice(-2000)}`);
    const usage = proc.resourceUsage();
    if (usage === undefined) throw new Error('no resource usage for a process that exited');
    return { ms, peakMB: usage.maxRSS / 1e6, stdoutBytes };
  } finally {
    clearTimeout(timer);
    running = undefined;
  }
}

/**
 * Each command once unmeasured (Bun's transpiler cache, the page cache), then `n` rounds of all of
 * them in turn, so that a machine busy with something else weighs on each command alike.
 */
async function rounds(commands: readonly (readonly string[])[], n: number): Promise<Runs[]> {
  for (const args of commands) await runOnce(args);
  const list: ProcessRun[][] = commands.map(() => []);
  for (let i = 0; i < n; i++) {
    for (const [c, args] of commands.entries()) list[c]!.push(await runOnce(args));
  }
  return commands.map((args, c) => ({
    command: `bun src/cli.ts ${args.join(' ')}`,
    medianMs: median(list[c]!.map((r) => r.ms)),
    medianPeakMB: median(list[c]!.map((r) => r.peakMB)),
    stdoutBytes: list[c]![0]!.stdoutBytes,
    runs: list[c]!,
  }));
}

/** The first blocktrace_debugStep(hash, 0) on a server that has not debugged it yet, then again. */
async function open(url: string, pid: number, hash: string): Promise<Opened> {
  const rssBeforeMB = rssMB(pid);
  const request = body('blocktrace_debugStep', [hash, 0]);
  const cold = await post(url, request, PROCESS_TIMEOUT_MS);
  const rssAfterMB = rssMB(pid);
  const peakAfterMB = rssMB(pid, 'VmHWM');
  if (cold.status !== 200 || !cold.text.includes('"result"')) throw new Error(`blocktrace_debugStep(${hash}, 0): HTTP ${cold.status} ${cold.text.slice(0, 300)}`);
  const warm = await post(url, request, PROCESS_TIMEOUT_MS);
  const { steps } = await call<{ steps: number }>(url, 'blocktrace_debugTransaction', [hash]);
  return { coldMs: cold.ms, warmMs: warm.ms, rssBeforeMB, rssAfterMB, peakAfterMB, steps };
}

export async function debuggerBench(n: number): Promise<DebuggerBench> {
  const named = JSON.parse(readFileSync(NAMES, 'utf8')) as Record<'heaviest' | 'loop', Named>;
  const which = ['heaviest', 'loop'] as const;
  const loadBefore = loadavg()[0]!;

  // the chain from its replay snapshot, as a user's second command finds it: each command's first, unmeasured run writes it
  const cache = mkdtempSync(join(tmpdir(), 'blocktrace-bench-debugger-cache-'));
  log(`the fixture's load alone (--replay-file answering eth_blockNumber) and debug --json --only-lines of each transaction, ${n} rounds`);
  const [baseline, heaviest, loop] = await rounds([
    ['--replay-file', FIXTURE, '--cache', cache, body('eth_blockNumber', [])],
    ...which.map((k) => ['debug', FIXTURE, named[k].hash, '--abi', ABI, '--json', '--only-lines', '--cache', cache]),
  ], n) as [Runs, Runs, Runs];
  const debug = { heaviest, loop };
  for (const k of which) log(`  ${k}: median ${debug[k].medianMs.toFixed(0)} ms, peak ${debug[k].medianPeakMB.toFixed(0)} MB (load alone: ${baseline.medianMs.toFixed(0)} ms, ${baseline.medianPeakMB.toFixed(0)} MB)`);

  log('serve --abi, then the viewer opens each transaction (blocktrace_debugStep(hash, 0))');
  const server = await startBlocktrace(SOURCE, FIXTURE, ROOT, 'blocktrace-debugger', ['--cache', cache, '--abi', ABI]);
  const viewer = {} as Record<'heaviest' | 'loop', Opened>;
  try {
    for (const k of which) {
      viewer[k] = await open(server.url, server.child.pid, named[k].hash);
      log(`  ${k}: cold ${viewer[k].coldMs.toFixed(0)} ms, warm ${viewer[k].warmMs.toFixed(1)} ms, RSS ${viewer[k].rssBeforeMB.toFixed(0)} → ${viewer[k].rssAfterMB.toFixed(0)} MB`);
    }
  } finally {
    await server.child.stop();
    rmSync(cache, { recursive: true, force: true });
  }

  const rows: Row[] = [];
  const whole = `debug ${FIXTURE} HASH --abi ${ABI} --json --only-lines`;
  rows.push(row(`debugger: the bench fixture's load alone (--replay-file answering eth_blockNumber) as a process, median of ${n}`, 'ms', baseline.medianMs, null, null, `peak RSS ${baseline.medianPeakMB.toFixed(0)} MB`));
  for (const k of which) {
    const t = named[k];
    const v = viewer[k];
    const d = debug[k];
    const what = k === 'heaviest'
      ? `debugger, the heaviest of block ${t.block}'s 200 transactions (${t.call}, ${v.steps.toLocaleString('en')} steps)`
      : `debugger, a ${v.steps.toLocaleString('en')}-step loop (${t.call})`;
    rows.push(row(`${what}: \`${whole}\` as a process, the chain from its replay snapshot (load, replay of the transaction, steps placed, ${(d.stdoutBytes / 1e6).toFixed(1)} MB printed), median of ${n}`, 'ms', d.medianMs, null, null, `load alone: ${baseline.medianMs.toFixed(0)} ms`));
    rows.push(row(`${what}: that process's time added over the load alone`, 'ms', d.medianMs - baseline.medianMs, null, MS_TARGET, `${d.medianMs.toFixed(0)} − ${baseline.medianMs.toFixed(0)} ms`));
    rows.push(row(`${what}: that process's peak RSS added over the load alone`, 'MB', d.medianPeakMB - baseline.medianPeakMB, null, MB_TARGET, `peak ${d.medianPeakMB.toFixed(0)} MB, load alone ${baseline.medianPeakMB.toFixed(0)} MB`));
    rows.push(row(`${what}: the viewer opens it, serve --abi: first blocktrace_debugStep(hash, 0) over HTTP, request → answer (cold)`, 'ms', v.coldMs, null, MS_TARGET, `again: ${v.warmMs.toFixed(1)} ms`));
    rows.push(row(`${what}: the server's RSS added by that first request`, 'MB', v.rssAfterMB - v.rssBeforeMB, null, MB_TARGET, `VmRSS ${v.rssBeforeMB.toFixed(0)} → ${v.rssAfterMB.toFixed(0)} MB, peak so far ${v.peakAfterMB.toFixed(0)} MB`));
  }
  return {
    rows,
    details: {
      fixture: FIXTURE,
      baseline,
      transactions: { heaviest: { ...named.heaviest, debug: debug.heaviest, viewer: viewer.heaviest }, loop: { ...named.loop, debug: debug.loop, viewer: viewer.loop } },
      serverReadyMs: server.readyMs,
      loadavg1: [loadBefore, loadavg()[0]!],
    },
  };
}

if (import.meta.main) {
  const opts = scriptOptions(process.argv.slice(2), 'debugger.ts', { runs: 5 });
  guardChildren(DEADLINE_MS, log);
  process.once('exit', () => {
    if (running !== undefined) process.kill(running, 'SIGKILL');
  });
  const report = await debuggerBench(opts.runs);
  log(`load average ${report.details.loadavg1.map((l) => l.toFixed(2)).join(' → ')}`);
  process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : markdown(report.rows));
}
