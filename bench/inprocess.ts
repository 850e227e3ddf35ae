// In-process measurements, run as a child of bench/run.ts so each starts from a fresh process.
// Prints one JSON line on stdout.
//
//   bun bench/inprocess.ts replay FIXTURE BLOCK RUNS   load + replay throughput, tracing overhead on BLOCK
//   bun bench/inprocess.ts yield FIXTURE RUNS          the load's cost of yielding to the event loop
//   bun bench/inprocess.ts all FIXTURE…                RSS with every fixture loaded in this process
//   bun bench/inprocess.ts compute FIXTURE#TEST         gas a second of a load heavy in computation
import { runBlock } from '@ethereumjs/vm';
import { readFixture } from '../src/fixture/detect.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import { setYielding } from '../src/replay/cooperative.ts';
import { rssMB } from './procs.ts';
import { median } from './stats.ts';

export interface ReplayReport {
  readonly loadMs: number;
  readonly txs: number;
  /** Per block, time between the loader's progress calls: runBlock + trie root + header checks. */
  readonly blocks: readonly { readonly number: number; readonly txs: number; readonly ms: number }[];
  readonly overhead: {
    readonly block: number;
    /** runBlock from the parent's root on a copy of the chain's VM without the recorder. */
    readonly plainMs: readonly number[];
    /** clearCaches(true) + recordBlock(): the same run with the recorder attached (the load's recording dropped). */
    readonly tracedMs: readonly number[];
    /** Median traced / median plain. */
    readonly ratio: number;
    /** Fastest traced / fastest plain: less sensitive to other load on a shared machine. */
    readonly ratioOfMin: number;
  };
  readonly rssMB: number;
}

export interface YieldReport {
  readonly txs: number;
  /** Whole loads of the fixture, alternately with yielding on and off. */
  readonly onMs: readonly number[];
  readonly offMs: readonly number[];
  /** Median on / median off. */
  readonly ratio: number;
}

export interface ComputeReport {
  readonly gasUsed: number;
  readonly loadMs: number;
  /** Million gas a second of the whole load. */
  readonly mgasPerSecond: number;
}

export interface AllReport {
  readonly chains: readonly { readonly path: string; readonly loadMs: number; readonly blocks: number; readonly txs: number }[];
  readonly rssMB: number;
  readonly peakRssMB: number;
}

async function replay(path: string, blockNumber: bigint, runs: number): Promise<ReplayReport> {
  const blocks: { number: number; txs: number; ms: number }[] = [];
  const start = performance.now();
  let last = start;
  let lastTxs = 0;
  const chain = await FixtureChain.load(readFixture(path), (done, _total, txs) => {
    const now = performance.now();
    blocks.push({ number: done, txs: txs - lastTxs, ms: now - last });
    last = now;
    lastTxs = txs;
  });
  const loadMs = performance.now() - start;
  const block = chain.blockByNumber(blockNumber);
  if (block === undefined) throw new Error(`${path}: no block ${blockNumber}`);

  // The chain keeps its VM and stored roots private; the benchmark reaches them by name (bench only).
  const vm = chain['vm'];
  const parentRoot = chain['parentOf'](block).stateRoot;
  const plainVm = await vm.shallowCopy(false);
  const plain = async (): Promise<number> => {
    // Like FixtureChain.record: the known root is reported instead of rehashing the trie.
    const state = plainVm.stateManager;
    const getStateRoot = state.getStateRoot;
    state.getStateRoot = async () => block.block.header.stateRoot;
    const t0 = performance.now();
    try {
      await runBlock(plainVm, {
        block: block.block, root: parentRoot, generate: true, setHardfork: true,
        skipBlockValidation: true, skipHeaderValidation: true, skipHardForkValidation: true,
      });
    } finally {
      state.getStateRoot = getStateRoot;
    }
    return performance.now() - t0;
  };
  const traced = async (): Promise<number> => {
    chain.clearCaches(true);
    const t0 = performance.now();
    await chain.recordBlock(block);
    return performance.now() - t0;
  };
  for (let i = 0; i < 2; i++) {
    await plain();
    await traced();
  }
  const plainMs: number[] = [];
  const tracedMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    plainMs.push(await plain());
    tracedMs.push(await traced());
  }
  return {
    loadMs,
    txs: lastTxs,
    blocks,
    overhead: { block: Number(blockNumber), plainMs, tracedMs, ratio: median(tracedMs) / median(plainMs), ratioOfMin: Math.min(...tracedMs) / Math.min(...plainMs) },
    rssMB: rssMB('self'),
  };
}

/** The load's cost of yielding to the event loop (replay/cooperative.ts): loads with it on and off, interleaved. */
async function yieldCost(path: string, runs: number): Promise<YieldReport> {
  const onMs: number[] = [];
  const offMs: number[] = [];
  let txs = 0;
  const load = async (on: boolean): Promise<number> => {
    setYielding(on);
    const start = performance.now();
    await FixtureChain.load(readFixture(path), (_done, _total, t) => {
      txs = t;
    });
    return performance.now() - start;
  };
  // the first loads are the slowest (the engine compiles as it goes): one of each before the timed ones
  await load(true);
  await load(false);
  for (let i = 0; i < runs; i++) {
    onMs.push(await load(true));
    offMs.push(await load(false));
  }
  setYielding(true);
  return { txs, onMs, offMs, ratio: median(onMs) / median(offMs) };
}

/** A load of a block heavy in computation (ethereum/tests vmPerformance): the interpreter's speed. */
async function compute(path: string): Promise<ComputeReport> {
  const start = performance.now();
  const chain = await FixtureChain.load(readFixture(path), () => {});
  const loadMs = performance.now() - start;
  let gasUsed = 0;
  for (let n = 1n; n <= chain.head.number; n++) gasUsed += Number(chain.blockByNumber(n)!.block.header.gasUsed);
  return { gasUsed, loadMs, mgasPerSecond: gasUsed / 1e6 / (loadMs / 1000) };
}

async function all(paths: readonly string[]): Promise<AllReport> {
  const chains: { path: string; loadMs: number; blocks: number; txs: number }[] = [];
  const kept: FixtureChain[] = [];
  for (const path of paths) {
    const start = performance.now();
    let count = 0;
    let txs = 0;
    kept.push(await FixtureChain.load(readFixture(path), (done, _total, t) => {
      count = done;
      txs = t;
    }));
    chains.push({ path, loadMs: performance.now() - start, blocks: count, txs });
  }
  Bun.gc(true);
  const report = { chains, rssMB: rssMB('self'), peakRssMB: rssMB('self', 'VmHWM') };
  if (kept.length !== paths.length) throw new Error('a chain was not kept');
  return report;
}

const [mode, ...rest] = process.argv.slice(2);
let report: ReplayReport | AllReport | YieldReport | ComputeReport;
if (mode === 'replay' && rest.length === 3) {
  report = await replay(rest[0]!, BigInt(rest[1]!), Number(rest[2]));
} else if (mode === 'yield' && rest.length === 2) {
  report = await yieldCost(rest[0]!, Number(rest[1]));
} else if (mode === 'compute' && rest.length === 1) {
  report = await compute(rest[0]!);
} else if (mode === 'all' && rest.length > 0) {
  report = await all(rest);
} else {
  process.stderr.write('usage: bun bench/inprocess.ts replay FIXTURE BLOCK RUNS | yield FIXTURE RUNS | compute FIXTURE#TEST | all FIXTURE…\n');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(report)}\n`);
