// `npm run bench`: blocktrace and anvil side by side on the cancun-devnet chain (issue 8).
// Prints a Markdown table on stdout, writes bench/results/latest.json; progress goes to stderr.
// Loopback only; every process it starts is stopped by PID (also on failure, SIGINT, deadline).
//
//   bun bench/run.ts [--runs N] [--seconds S] [--connections C]
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { type AnvilFixture, type AnvilLoad, anvilBinary, loadAnvilChain, startAnvil } from './anvil.ts';
import { type Server, startBlocktrace } from './blocktrace.ts';
import { type Case, HEAVY_BLOCK, type Latency, SMALL_BLOCK, cases, latency } from './cases.ts';
import type { AllReport, ComputeReport, ReplayReport, YieldReport } from './inprocess.ts';
import { type LoadResult, loadTest } from './loadgen.ts';
import { logRows } from './logs.ts';
import { TRACE_FILTER_FIRST, traceFilterRows } from './traceFilter.ts';
import { snapshotFirsts } from './snapshotFirsts.ts';
import { apiSnapshotRows } from './apiSnapshots.ts';
import { stateReadRows } from './stateReads.ts';
import { decodeSnapshot } from '../src/cache/snapshot.ts';
import { loadFixtureFile } from './generate.ts';
import { anvilOnGenerated } from './generated.ts';
import { measureOtsSearch, type OtsSearch, otterscanRows } from './otterscan.ts';
import type { UiReport } from './ui.ts';
import type { CheckReportBench } from './checkReport.ts';
import type { ChainDiffBench } from './chainDiff.ts';
import type { LongChainRun } from './longChain.ts';
import type { DebuggerBench } from './debugger.ts';
import type { ResponsiveBench } from './responsive.ts';
import type { ReplicasBench } from './replicas.ts';
import { freePort, guardChildren, rssMB, spawnChild, stopAll } from './procs.ts';
import { call, timedResult } from './rpc.ts';
import { markdown, row, type Row } from './table.ts';

const ROOT = resolve(import.meta.dir, '..');
/** The chains as the repository ships them (golden/: byte copies of the corpora's). */
const GOLDEN = join(ROOT, 'golden');
const FIXTURE = join(GOLDEN, 'fixtures/cancun-devnet/fixture.json');
/** Loads with yielding on, and as many off, for the cost of yielding (at least). */
const YIELD_RUNS = 15;
const ALL_CHAINS = [
  join(GOLDEN, 'execution-apis/tests'),
  join(GOLDEN, 'execution-apis-pr855'),
  join(GOLDEN, 'fixtures/cancun-devnet/fixture.json'),
  join(GOLDEN, 'fixtures/prague-devnet/fixture.json'),
];
const BINARY = join(ROOT, 'dist/blocktrace');
/** cancun-devnet's contracts' artifacts (check and diff decode with them). */
const SHIPPED_ABIS = join(GOLDEN, 'fixtures/cancun-devnet/out');
/** ethereum/tests vmPerformance/loopMul (bench/fixtures/README.md): 0.54 Ggas of MUL loops in one block. */
const COMPUTE = join(ROOT, 'bench/fixtures/loopMul.json#loopMul_d2g0v0_Cancun');
/** Transactions of the generated start-up fixture (bench/generate.ts). */
const GENERATED_TXS = 10_000;
const SOURCE = [process.execPath, 'src/cli.ts'];
// the long-chain section alone takes some five minutes (anvil mining 100,000 transactions is three)
const DEADLINE_MS = 30 * 60 * 1000;

const log = (line: string): void => void process.stderr.write(`bench: ${line}\n`);
const rel = (path: string): string => relative(ROOT, path);
const round2 = (n: number): number => Math.round(n * 100) / 100;

function options(argv: readonly string[]): { runs: number; seconds: number; connections: number } {
  const out = { runs: 5, seconds: 3, connections: 8 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if ((key !== 'runs' && key !== 'seconds' && key !== 'connections') || !Number.isInteger(value) || value < 1) {
      throw new Error(`usage: bun bench/run.ts [--runs N] [--seconds S] [--connections C] (got ${argv.join(' ')})`);
    }
    out[key] = value;
  }
  return out;
}

/** Per case: a fresh blocktrace for each, so its first request is cold (fixture loaded, nothing traced). */
async function blocktraceCold(list: readonly Case[]): Promise<{ coldMs: Map<string, number>; readyMs: number[] }> {
  const coldMs = new Map<string, number>();
  const readyMs: number[] = [];
  for (const c of list) {
    const server = await startBlocktrace(SOURCE, FIXTURE, ROOT);
    readyMs.push(server.readyMs);
    coldMs.set(c.label, (await timedResult(server.url, c.body)).ms);
    await server.child.stop();
    log(`cold blocktrace ${c.label}: ${coldMs.get(c.label)!.toFixed(1)} ms (ready after ${server.readyMs.toFixed(0)} ms)`);
  }
  return { coldMs, readyMs };
}

async function latencies(name: string, url: string, list: readonly Case[], runs: number): Promise<Map<string, Latency>> {
  const out = new Map<string, Latency>();
  for (const c of list) {
    const l = await latency(url, c, runs);
    out.set(c.label, l);
    log(`${name} ${c.label}: first ${l.coldMs.toFixed(1)} ms, warm median ${l.warmMedianMs.toFixed(2)} ms, ${l.responseBytes} bytes`);
  }
  return out;
}

/**
 * A bench script run as its own process: its last stdout line, JSON. Past `timeoutMs`, when given,
 * SIGTERM by PID (the script stops its own children), SIGKILL 5 s later.
 */
async function scriptReport<T>(script: string, args: readonly string[], timeoutMs?: number): Promise<T> {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'bench', script), ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'inherit' });
  const kill = (signal: NodeJS.Signals): void => void (proc.exitCode === null && proc.signalCode === null && process.kill(proc.pid, signal));
  const timers = timeoutMs === undefined ? [] : [setTimeout(() => kill('SIGTERM'), timeoutMs), setTimeout(() => kill('SIGKILL'), timeoutMs + 5000)];
  const text = await new Response(proc.stdout).text();
  const code = await proc.exited;
  for (const timer of timers) clearTimeout(timer);
  if (code !== 0) throw new Error(`bench/${script} failed${proc.signalCode !== null && timeoutMs !== undefined ? ` (stopped after ${timeoutMs / 1000} s)` : ''}`);
  return JSON.parse(text.trim().split('\n').pop()!) as T;
}

async function inProcess<T>(args: readonly string[]): Promise<T> {
  const child = spawnChild('inprocess', [process.execPath, 'bench/inprocess.ts', ...args], ROOT);
  const killer = setTimeout(() => void child.stop(), 180_000);
  const code = await child.exited;
  clearTimeout(killer);
  const line = child.output().split('\n').find((l) => l.startsWith('{'));
  if (code !== 0 || line === undefined) throw new Error(`bench/inprocess.ts ${args[0]} exited ${code}:\n${child.output().slice(-2000)}`);
  return JSON.parse(line) as T;
}

interface Starts {
  /** Spawn → first answer needing the chain, without a snapshot: the replay (which writes one). */
  readonly firstMs: number;
  /** The same from the snapshot the first start wrote. */
  readonly secondMs: number;
  readonly binary: boolean;
  readonly snapshotBytes: number;
  /** Code entries in the snapshot's database (it keeps no trie node: replay/stateHistory.ts). */
  readonly stateEntries: number;
  /** Bytes of the snapshot's state: its history and its code. */
  readonly stateBytes: number;
}

/**
 * Start-up with the snapshot cache (issue 18): spawn → first answer of a request that needs the
 * chain (eth_getBlockByNumber latest waits for the load), without a snapshot (the replay, which
 * writes it) and then with it. The compiled binary when built, else bun.
 */
async function cacheStarts(fixture: string): Promise<Starts> {
  const binary = existsSync(BINARY);
  const command = binary ? [BINARY] : [process.execPath, join(ROOT, 'src/cli.ts')];
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-cache-'));
  const once = async (): Promise<number> => {
    const port = await freePort();
    const started = performance.now();
    const proc = Bun.spawn([...command, 'serve', fixture, '--port', String(port), '--cache', dir, '--trace-timeout', '0'], { cwd: ROOT, stdout: 'ignore', stderr: 'ignore' });
    try {
      for (;;) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}' });
          if (!(await res.text()).includes('"result"')) continue;
          const ms = performance.now() - started;
          // the snapshot is written just after the load's first answers (src/cache/forFixture.ts)
          for (let waited = 0; !readdirSync(dir).some((f) => f.endsWith('.snap')) && waited < 60_000; waited += 20) await Bun.sleep(20);
          return ms;
        } catch {
          await Bun.sleep(2);
        }
      }
    } finally {
      process.kill(proc.pid, 'SIGKILL');
      await proc.exited;
    }
  };
  const firstMs = await once();
  const secondMs = await once();
  const snap = join(dir, readdirSync(dir).find((f) => f.endsWith('.snap'))!);
  const snapshotBytes = statSync(snap).size;
  const decoded = decodeSnapshot(readFileSync(snap), basename(snap, '.snap'));
  rmSync(dir, { recursive: true, force: true });
  if (typeof decoded === 'string') throw new Error(`${fixture}: its snapshot does not decode (${decoded})`);
  let stateBytes = decoded.history.length;
  // keys are hex text in the database: counted as the bytes they name
  for (const [key, value] of decoded.nodes) stateBytes += key.length / 2 + (typeof value === 'string' ? Buffer.byteLength(value) : value.length);
  return { firstMs, secondMs, binary, snapshotBytes, stateEntries: decoded.nodes.size, stateBytes };
}

async function binaryFirstResponse(): Promise<{ ms: number; builtAt: string } | null> {
  if (!existsSync(BINARY)) return null;
  const fixture = join(GOLDEN, 'execution-apis/tests');
  const server = await startBlocktrace([BINARY], fixture, ROOT, 'blocktrace-binary');
  try {
    await call(server.url, 'eth_blockNumber');
    return { ms: performance.now() - server.child.startedAt, builtAt: statSync(BINARY).mtime.toISOString() };
  } finally {
    await server.child.stop();
  }
}

function gitHead(): string {
  const out = Bun.spawnSync(['git', 'rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  const dirty = Bun.spawnSync(['git', 'status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  return `${out.stdout.toString().trim()}${dirty.stdout.toString().trim() !== '' ? '+dirty' : ''}`;
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  guardChildren(DEADLINE_MS, log);
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as AnvilFixture;
  const heavy = cases(HEAVY_BLOCK);
  const small = cases(SMALL_BLOCK);
  const all = [...heavy, ...small];

  log(`anvil ${fixture.anvil.version} (${rel(anvilBinary())}) on ${rel(FIXTURE)}`);
  const anvil = await startAnvil(FIXTURE, fixture, await freePort(), ROOT);
  const anvilLoad: AnvilLoad = await loadAnvilChain(anvil.url, fixture);
  log(`anvil: ${anvilLoad.txs} txs sent and mined in ${anvilLoad.totalMs.toFixed(0)} ms; block hashes equal the fixture's`);
  // anvil is not restarted: its first request per case is its "cold" one
  const anvilLat = await latencies('anvil', anvil.url, all, opts.runs);

  const cold = await blocktraceCold(all);
  log('first answers after a start from the snapshot');
  const smallTraceBlock = small.find((c) => c.method === 'trace_block')!;
  const fromSnapshot = await snapshotFirsts(SOURCE, FIXTURE, ROOT, [smallTraceBlock.body, TRACE_FILTER_FIRST]);
  const server: Server = await startBlocktrace(SOURCE, FIXTURE, ROOT);
  const btLat = await latencies('blocktrace', server.url, all, opts.runs);
  const logs = await logRows(server.url, anvil.url, opts.runs);
  const filters = await traceFilterRows(server.url, anvil.url, opts.runs, fromSnapshot.firstMs.get(TRACE_FILTER_FIRST)!);
  const reads = await stateReadRows(server.url, anvil.url, opts.runs);

  const load: Record<string, { blocktrace: LoadResult; anvil: LoadResult }> = {};
  for (const c of [small[0]!, heavy[2]!]) {
    const lopts = { connections: opts.connections, seconds: opts.seconds, cwd: ROOT };
    load[c.label] = { blocktrace: await loadTest(server.url, c.body, lopts), anvil: await loadTest(anvil.url, c.body, lopts) };
    log(`load ${c.label}: blocktrace ${load[c.label]!.blocktrace.requestsPerSecond.toFixed(0)} req/s, anvil ${load[c.label]!.anvil.requestsPerSecond.toFixed(0)} req/s`);
  }
  const rss = { blocktrace: rssMB(server.child.pid), anvil: rssMB(anvil.child.pid) };
  await server.child.stop();
  await anvil.child.stop();

  log('in-process replay and tracing overhead');
  const replay = await inProcess<ReplayReport>(['replay', FIXTURE, String(BigInt(HEAVY_BLOCK)), String(2 * opts.runs)]);
  log('in-process: every corpus chain loaded in one process');
  const allChains = await inProcess<AllReport>(['all', ...ALL_CHAINS]);
  // a load of 310 txs takes 0.16–0.42 s here from one to the next, so 5 pairs of them cannot show 3%
  const yieldRuns = Math.max(opts.runs, YIELD_RUNS);
  const yieldCost = await inProcess<YieldReport>(['yield', FIXTURE, String(yieldRuns)]);
  log('in-process: a block heavy in computation');
  const computeLoad = await inProcess<ComputeReport>(['compute', COMPUTE]);
  log('show and the viewer on the heavy block');
  const ui = await scriptReport<UiReport>('ui.ts', [FIXTURE, HEAVY_BLOCK]);
  log('the source-level debugger: a 200-transaction block\'s heaviest transaction and a 1,000,000-step loop');
  const debuggerBench = await scriptReport<DebuggerBench>('debugger.ts', ['--json', '--runs', String(opts.runs)], 15 * 60 * 1000);
  log('responsiveness: health, signals and deadlines while a load or a trace runs');
  const responsive = await scriptReport<ResponsiveBench>('responsive.ts', ['--json', '--runs', String(Math.min(opts.runs, 3))], 10 * 60 * 1000);
  log('replicas: HAProxy in front of three servers, one SIGTERMed and one SIGKILLed under load');
  const replicas = await scriptReport<ReplicasBench>('replicas.ts', ['--json'], 10 * 60 * 1000);
  log('check: a report of 1,000 differences');
  const checkReport = await scriptReport<CheckReportBench>('checkReport.ts', [FIXTURE, HEAVY_BLOCK, SHIPPED_ABIS]);
  log(`diff: block ${HEAVY_BLOCK} against itself and against a copy with one transaction changed`);
  const chainDiff = await scriptReport<ChainDiffBench>('chainDiff.ts', [FIXTURE, HEAVY_BLOCK, SHIPPED_ABIS]);
  log('long chains: 10,000 and 100,000 generated transactions (anvil mining the 100,000 beside)');
  // BLOCKTRACE_BENCH_MILLION=1 adds the 1,000,000-transaction chain (some 25 minutes more)
  const longChains = await scriptReport<LongChainRun[]>('longChain.ts', process.env['BLOCKTRACE_BENCH_MILLION'] === '1' ? ['--million'] : []);
  const binary = await binaryFirstResponse();
  log('start-up with the snapshot cache');
  const starts = await cacheStarts(FIXTURE);
  // generated once per machine (a few seconds), then reused
  const generatedPath = await loadFixtureFile(join(tmpdir(), 'blocktrace-bench', `generated-${GENERATED_TXS}-v1.json`), GENERATED_TXS, 200);
  log(`generated fixture ${generatedPath}: start-up, and anvil on the same chain`);
  const generated = await cacheStarts(generatedPath);
  log('the Otterscan address search on the generated fixture');
  const otsServer = await startBlocktrace(SOURCE, generatedPath, ROOT, 'blocktrace-generated');
  let otsSearch: OtsSearch;
  try {
    otsSearch = await measureOtsSearch(otsServer.url, opts.runs);
  } finally {
    await otsServer.child.stop();
  }
  const anvilGenerated = await anvilOnGenerated(generatedPath, ROOT, (url) => measureOtsSearch(url, opts.runs));
  if (binary === null) log(`${rel(BINARY)} absent: binary start-up skipped (npm run compile makes it)`);

  const heavyIndex = fixture.blocks.findIndex((b) => BigInt(b.number) === BigInt(HEAVY_BLOCK));
  const heavyTxs = fixture.blocks[heavyIndex]!.rawTransactions.length;
  const btHeavy = replay.blocks.find((b) => b.number === heavyIndex + 1)!;
  const anvilHeavy = anvilLoad.blocks[heavyIndex]!;
  const rows: Row[] = [];
  for (const c of all) {
    const target = c.block === HEAVY_BLOCK ? { op: '<' as const, value: 400 } : null;
    rows.push(row(`cold ${c.label}`, 'ms', cold.coldMs.get(c.label)!, anvilLat.get(c.label)!.coldMs, target));
  }
  rows.push(row(`first ${smallTraceBlock.label} after a start from the snapshot`, 'ms', fromSnapshot.firstMs.get(smallTraceBlock.body)!, anvilLat.get(smallTraceBlock.label)!.coldMs, { op: '<=', value: 10, of: 'ratio' }));
  for (const c of all) {
    const target = c.block === HEAVY_BLOCK ? { op: '<' as const, value: 3 } : null;
    rows.push(row(`warm median of ${opts.runs}, ${c.label}`, 'ms', btLat.get(c.label)!.warmMedianMs, anvilLat.get(c.label)!.warmMedianMs, target));
  }
  for (const [label, l] of Object.entries(load)) {
    const target = label === small[0]!.label ? { op: '>=' as const, value: 20_000 } : null;
    rows.push(row(`cached ${label}, ${opts.connections} connections, ${opts.seconds} s`, 'req/s', l.blocktrace.requestsPerSecond, l.anvil.requestsPerSecond, target));
  }
  rows.push(row(`replay at load, block ${HEAVY_BLOCK} (${heavyTxs} txs)`, 'tx/s', heavyTxs / (btHeavy.ms / 1000), heavyTxs / (anvilHeavy.mineMs / 1000), { op: '>=', value: 1000 }, 'anvil: its evm_mine'));
  rows.push(row(`load whole fixture (${replay.txs} txs)`, 'tx/s', replay.txs / (replay.loadMs / 1000), anvilLoad.txs / (anvilLoad.totalMs / 1000), null, 'anvil: send + mine over HTTP'));
  const overheadRuns = replay.overhead.plainMs.length;
  rows.push(row(`the load's cost of yielding to the event loop: load with / without (${yieldCost.txs} txs, median of ${yieldRuns} each)`, '×', yieldCost.ratio, null, { op: '<=', value: 1.03 }));
  rows.push(row(`heavy compute: load of ethereum/tests loopMul_d2g0v0_Cancun (${(computeLoad.gasUsed / 1e9).toFixed(2)} Ggas, one block)`, 'Mgas/s', computeLoad.mgasPerSecond, null, { op: '>=', value: 40 }));
  rows.push(row(`tracing overhead, block ${HEAVY_BLOCK}: recordBlock / plain runBlock, fastest of ${overheadRuns}`, '×', replay.overhead.ratioOfMin, null, { op: '<=', value: 1.15 }, `medians: ${replay.overhead.ratio.toFixed(3)}×`));
  rows.push(...logs);
  rows.push(...filters);
  rows.push(...reads);
  const how = starts.binary ? 'binary' : 'bun, no binary built';
  rows.push(row(`start of cancun-devnet without a snapshot → first answer (${how})`, 'ms', starts.firstMs, null, null));
  rows.push(row(`second start, from its snapshot → first answer (${how})`, 'ms', starts.secondMs, null, { op: '<=', value: 150 }));
  rows.push(row(`snapshot file of cancun-devnet (${starts.stateEntries} code entries)`, 'KB', starts.snapshotBytes / 1000, null, null));
  rows.push(row(`first start of a generated ${GENERATED_TXS.toLocaleString('en')}-transaction fixture → first answer (${how}; anvil: send + mine over HTTP)`, 'tx/s', GENERATED_TXS / (generated.firstMs / 1000), anvilGenerated.txs / (anvilGenerated.totalMs / 1000), { op: '>=', value: 1500 }));
  rows.push(row(`second start of the generated fixture, from its snapshot → first answer (${how})`, 'ms', generated.secondMs, null, { op: '<=', value: 300 }));
  rows.push(...otterscanRows(otsSearch, anvilGenerated.then, opts.runs));
  // issue 37: the snapshot grows with what the chain changed (≤ 100 MB at 100,000 transactions)
  rows.push(row(`snapshot file of the generated fixture (its state: history and code, ${(generated.stateBytes / 1e6).toFixed(1)} MB)`, 'MB', generated.snapshotBytes / 1e6, null, { op: '<=', value: 10 }));
  rows.push(row(`show of block ${HEAVY_BLOCK} (${ui.showLines} lines), after the load`, 'ms', ui.showMs, null, { op: '<', value: 1000 }));
  rows.push(row(`check: report of ${checkReport.differences.toLocaleString('en')} differences in block ${HEAVY_BLOCK}'s trace_block and callTracer (compare, place, decode, text), median of 5 in process`, 'ms', checkReport.reportMs, null, { op: '<', value: 1000 }));
  rows.push(row(`check: the same as a command (check … --abi, start from the snapshot → report printed)`, 'ms', checkReport.commandMs, null, { op: '<', value: 1000 }));
  rows.push(row(`diff: block ${HEAVY_BLOCK} (${chainDiff.transactions} txs) against itself, warm (callTracer, prestate diff mode, receipts of both sides compared, --abi), median of 5 in process`, 'ms', chainDiff.sameMs, null, { op: '<', value: 1000 }));
  rows.push(row(`diff: block ${HEAVY_BLOCK} against a copy with one transaction changed (${chainDiff.differing} pair differs, decoded), warm, median of 5`, 'ms', chainDiff.changedMs, null, { op: '<', value: 1000 }));
  rows.push(row(`diff: the same, the copy's block not yet traced (cold)`, 'ms', chainDiff.firstMs, null, null));
  rows.push(row(`diff: the same as a command (diff A B ${HEAVY_BLOCK} --abi, both from their snapshots, both blocks traced cold)`, 'ms', chainDiff.commandMs, null, null));
  // issue 37's targets are those of 100,000 and 1,000,000 transactions; 10,000 is shown beside for the growth
  for (const run of longChains) {
    const at = `long chain, ${run.txs.toLocaleString('en')} txs:`;
    const big = run.txs >= 100_000;
    const million = run.txs >= 1_000_000;
    const target = (at100k: number, at1M?: number) => (million ? (at1M === undefined ? null : { op: '<=' as const, value: at1M }) : big ? { op: '<=' as const, value: at100k } : null);
    rows.push(row(`${at} first start, replay → loaded (anvil: send + mine the same transactions)`, 'tx/s', run.txs / (run.firstStartMs / 1000), run.anvilMs === undefined ? null : run.txs / (run.anvilMs / 1000), big && run.anvilMs !== undefined ? { op: '>=', value: 1, of: 'ratio' } : null));
    rows.push(row(`${at} peak RSS of the first start`, 'MB', run.firstPeakMB, null, target(1000, 4000)));
    rows.push(row(`${at} the same, its snapshot written too`, 'MB', run.firstPeakWithSnapshotMB, null, target(1000, 4000)));
    rows.push(row(`${at} snapshot file`, 'MB', run.snapshotMB, null, target(100, 1000)));
    rows.push(row(`${at} second start, from its snapshot → loaded`, 'ms', run.secondStartMs, null, target(500, 2000)));
    rows.push(row(`${at} RSS serving`, 'MB', run.servingMB, null, target(300)));
    rows.push(row(`${at} eth_getLogs over the whole chain (${run.getLogsAnswer === 'response too large' ? '-32003' : `${(run.getLogsAnswer / 1e6).toFixed(1)} MB`}), first request`, 'ms', run.getLogsMs, null, target(1000, 1000)));
    rows.push(row(`${at} its RSS growth, 2 s after (right after: ${Math.round(run.getLogsRssMB[1] - run.getLogsRssMB[0])} MB)`, 'MB', run.getLogsRssMB[2] - run.getLogsRssMB[0], null, target(100, 100)));
    for (const r of run.requests) {
      rows.push(row(`${at} ${r.name} (${typeof r.answer === 'number' ? `${(r.answer / 1e3).toFixed(1)} KB` : r.answer})`, 'ms', r.ms, null, null));
    }
    rows.push(row(`${at} RSS after those requests, 2 s after (right after: ${Math.round(run.requestsRssMB[0])} MB)`, 'MB', run.requestsRssMB[1], null, target(300)));
  }
  rows.push(row(`viewer: click on block ${HEAVY_BLOCK} in the block list → its ${heavyTxs} transactions shown (headless Chromium)`, 'ms', ui.blockPageMs ?? null, null, { op: '<', value: 500 }, ui.blockPageMs === undefined ? 'chromium absent' : undefined));
  rows.push(row(`viewer: click on its first transaction → call tree shown`, 'ms', ui.txTreeMs ?? null, null, { op: '<', value: 500 }, ui.txTreeMs === undefined ? 'chromium absent' : undefined));
  rows.push(...debuggerBench.rows);
  rows.push(...responsive.rows);
  rows.push(...replicas.rows);
  {
    const replayCold = cold.coldMs.get(`trace_replayBlockTransactions trace ${HEAVY_BLOCK}`)!;
    const blockCold = cold.coldMs.get(`trace_block ${HEAVY_BLOCK}`)!;
    rows.push(row(`cold trace_replayBlockTransactions / cold trace_block, block ${HEAVY_BLOCK}`, '×', replayCold / blockCold, null, { op: '<=', value: 1.2 }));
  }
  rows.push(row('RSS after the runs above, cancun-devnet served', 'MB', rss.blocktrace, rss.anvil, { op: '<=', value: 2.5, of: 'ratio' }));
  rows.push(row(`RSS, all ${ALL_CHAINS.length} corpus chains loaded in one process`, 'MB', allChains.rssMB, null, { op: '<', value: 400 }));
  rows.push(row('compiled binary: spawn → first response, execution-apis chain', 'ms', binary?.ms ?? null, null, { op: '<', value: 1500 }, binary === null ? 'dist/blocktrace absent' : undefined));
  // the library in this process (issue 48): openChain from the replay snapshot, a trace snapshot of a 200-transaction block
  rows.push(...(await apiSnapshotRows()));

  const table = markdown(rows);
  process.stdout.write(table);
  const sameBytes = Object.fromEntries(all.map((c) => [c.label, btLat.get(c.label)!.responseSha256 === anvilLat.get(c.label)!.responseSha256]));
  const results = {
    format: 'blocktrace-bench/v1',
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((performance.now() - started) / 1000),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', loadavg1AtStart: round2(loadBefore), loadavg1AtEnd: round2(loadavg()[0]!) },
    versions: { blocktrace: gitHead(), bun: Bun.version, anvil: fixture.anvil.version },
    fixture: rel(FIXTURE),
    options: opts,
    definitions: {
      cold: 'blocktrace: a fresh server per (method, block), first request once it listens (fixture loaded and replayed, nothing traced). anvil: first request of that case after the chain was mined; anvil is not restarted (its debug_* re-executes on every call, trace_block reads traces stored while mining).',
      warm: `median of ${opts.runs} requests after the first, same keep-alive client`,
      load: 'autocannon 9 under node, a second process, POST of one body to 127.0.0.1 after that body was answered once (cached)',
      replay: 'blocktrace: FixtureChain.load in a fresh process, per block the time between progress calls (runBlock, state root, header checks). anvil: evm_mine of the block after its transactions were sent',
      overhead: 'fastest FixtureChain.clearCaches(true) + recordBlock(block) over fastest runBlock of the same block from the parent root on vm.shallowCopy() (no recorder), runs alternated after two warm-ups each; fastest runs because the machine is shared (medians in the note); both report the known root instead of rehashing',
      rss: 'VmRSS from /proc/PID/status, MB = 10^6 bytes',
    },
    rows,
    details: {
      anvilLoad,
      blocktraceReadyMs: cold.readyMs.map(Math.round),
      latency: Object.fromEntries(all.map((c) => [c.label, { blocktrace: { ...btLat.get(c.label)!, coldMs: cold.coldMs.get(c.label)! }, anvil: anvilLat.get(c.label)!, sameBytes: sameBytes[c.label] }])),
      load,
      replay,
      computeLoad,
      debugger: debuggerBench.details,
      responsive: responsive.details,
      replicas: replicas.details,
      allChains: { ...allChains, chains: allChains.chains.map((c) => ({ ...c, path: relative(ROOT, c.path) })) },
      binary,
      starts: { cancunDevnet: starts, generated: { fixture: generatedPath, ...generated, anvil: anvilGenerated } },
    },
  };
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${rel(join(dir, 'latest.json'))} in ${results.durationSeconds} s; load average ${results.machine.loadavg1AtStart} → ${results.machine.loadavg1AtEnd} on ${results.machine.cpus} CPUs`);
}

main().then(
  () => stopAll(),
  async (error: unknown) => {
    log(`failed: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exit(1);
  },
);
