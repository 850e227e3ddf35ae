// The load keeps each block's frames-only recording, encoded (src/recordingCodec/), in memory and in
// the replay snapshot, and requests that need no state are answered from it (issue 28). For every
// block of every fixture the tests have (the corpus chains, the execution-apis chains, every test of
// the ethereum/tests sample, every go-ethereum tracer test, the pathological blocks), the kept
// recording, read back after the load and after a start from the snapshot, is deep-equal to the
// block run again with the recorder, and every renderer that reads a recording without state answers
// the same bytes from both. While the kept recordings serve, no block is run.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { decodeSnapshot, encodeSnapshot, type Snapshot } from '../src/cache/snapshot.ts';
import { readFixture } from '../src/fixture/detect.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import type { ChainBlock } from '../src/replay/chainView.ts';
import { createContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import type { BlockRecording } from '../src/trace/types.ts';
import { ROOT } from './faces.ts';
import { deepCallFixture, heavyFixture, hugeResultFixture } from '../bench/pathological.ts';
import { fromBlocktraceJson } from '../src/fixture/blocktraceJson.ts';
import type { ChainSpec } from '../src/fixture/types.ts';

const GOLDEN = join(ROOT, 'golden');
const SLOW = 300_000;

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? jsonFiles(path) : path.endsWith('.json') ? [path] : [];
  });
}

/** Every test of the ethereum/tests sample, as FILE#NAME. */
const BLOCKCHAIN_TESTS = jsonFiles(join(GOLDEN, 'blockchain-tests')).flatMap((file) =>
  Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).map((name) => `${file}#${name}`));
const TRACER_TESTS = readdirSync(join(GOLDEN, 'geth-tracetest'))
  .filter((d) => statSync(join(GOLDEN, 'geth-tracetest', d)).isDirectory())
  .flatMap((d) => jsonFiles(join(GOLDEN, 'geth-tracetest', d)));
const CHAINS = [
  join(GOLDEN, 'fixtures/cancun-devnet/fixture.json'),
  join(GOLDEN, 'fixtures/prague-devnet/fixture.json'),
  join(GOLDEN, 'execution-apis/tests'),
  join(GOLDEN, 'execution-apis-pr855'),
];

const req = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

/** The requests of one block that read its recording without state: each tracer and method that does. */
function requests(block: ChainBlock): string[] {
  const n = `0x${block.number.toString(16)}`;
  const out = [
    req('debug_traceBlockByNumber', [n, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
    req('debug_traceBlockByNumber', [n, { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }]),
    req('debug_traceBlockByNumber', [n, { tracer: 'flatCallTracer' }]),
    req('debug_traceBlockByNumber', [n, { tracer: '4byteTracer' }]),
    req('debug_traceBlockByNumber', [n, { tracer: 'noopTracer' }]),
    req('debug_traceBlockByNumber', [n, { tracer: 'muxTracer', tracerConfig: { callTracer: { withLog: true }, flatCallTracer: {}, '4byteTracer': {} } }]),
    req('trace_block', [n]),
    req('trace_replayBlockTransactions', [n, ['trace']]),
    req('trace_filter', [{ fromBlock: n, toBlock: n }]),
  ];
  for (const tx of block.block.transactions) {
    const hash = `0x${Buffer.from(tx.hash()).toString('hex')}`;
    out.push(
      req('debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      req('trace_transaction', [hash]),
      req('trace_get', [hash, ['0x0']]),
      req('ots_traceTransaction', [hash]),
      req('ots_getInternalOperations', [hash]),
      req('ots_getTransactionError', [hash]),
    );
  }
  return out;
}

interface Seen {
  readonly recordings: BlockRecording[];
  readonly answers: string[][];
}

function blocksOf(chain: FixtureChain): ChainBlock[] {
  const out: ChainBlock[] = [];
  for (let n = chain.genesis.number + 1n; n <= chain.head.number; n++) out.push(chain.blockByNumber(n)!);
  return out;
}

/** Each block's recording without state and the answers of its requests; counts the blocks run meanwhile. */
async function read(chain: FixtureChain, withAnswers: boolean): Promise<Seen & { runs: number }> {
  const recorder = (chain as unknown as { recorder: { start: (...args: unknown[]) => void } }).recorder;
  const start = recorder.start;
  let runs = 0;
  recorder.start = (...args: unknown[]) => {
    runs++;
    start.apply(recorder, args);
  };
  try {
    const ctx = createContext(chain, { cacheResults: false, allTracers: true, traceTimeoutMs: 0, log: () => {} });
    const recordings: BlockRecording[] = [];
    const answers: string[][] = [];
    for (const block of blocksOf(chain)) {
      recordings.push(await chain.recordBlock(block));
      if (!withAnswers) continue;
      const texts: string[] = [];
      for (const body of requests(block)) texts.push((await dispatch(body, ctx))!);
      answers.push(texts);
    }
    return { recordings, answers, runs };
  } finally {
    recorder.start = start;
  }
}

/**
 * Loads `spec` (a first start: the blocks run and their recordings kept), then from the snapshot it
 * wrote; both read without running a block, and agree with the blocks run again.
 */
async function check(spec: () => ChainSpec, withAnswers = true): Promise<number> {
  let made: Snapshot | undefined;
  const chain = await FixtureChain.load(spec(), undefined, { save: (s) => void (made = s) });
  const kept = await read(chain, withAnswers);
  const snapshot = decodeSnapshot(encodeSnapshot('k', made!), 'k');
  if (typeof snapshot === 'string') throw new Error(snapshot);
  const restored = await read(await FixtureChain.load(spec(), undefined, { snapshot }), withAnswers);
  chain.clearCaches(true);
  const live = await read(chain, withAnswers);
  expect({ kept: kept.runs, restored: restored.runs }).toEqual({ kept: 0, restored: 0 });
  expect(live.runs).toBe(kept.recordings.length);
  for (const [i, recording] of live.recordings.entries()) {
    expect(kept.recordings[i]).toStrictEqual(recording);
    expect(restored.recordings[i]).toStrictEqual(recording);
  }
  expect(kept.answers).toEqual(live.answers);
  expect(restored.answers).toEqual(live.answers);
  return live.recordings.reduce((n, r) => n + r.txs.length, 0);
}

describe('kept recordings read back equal the blocks run again, and answer the same bytes', () => {
  for (const path of CHAINS) {
    test(path.slice(GOLDEN.length + 1), async () => {
      expect(await check(() => readFixture(path))).toBeGreaterThan(0);
    }, SLOW);
  }

  test('every test of the ethereum/tests sample', async () => {
    expect(BLOCKCHAIN_TESTS.length).toBeGreaterThan(30);
    let txs = 0;
    for (const test of BLOCKCHAIN_TESTS) txs += await check(() => readFixture(test));
    expect(txs).toBeGreaterThan(30);
  }, SLOW);

  test('every go-ethereum tracer test', async () => {
    expect(TRACER_TESTS.length).toBeGreaterThan(50);
    for (const path of TRACER_TESTS) expect(await check(() => readFixture(path))).toBe(1);
  }, SLOW);

  test('pathological blocks: 1024 frames deep, 5000 logs, failing creates, SSTOREs', async () => {
    for (const fixture of [await deepCallFixture(), await heavyFixture()]) {
      expect(await check(() => fromBlocktraceJson('pathological', fixture as unknown as Record<string, unknown>))).toBeGreaterThan(0);
    }
  }, SLOW);

  test('12000 calls with the same 24000-byte input: kept once, in some kilobytes', async () => {
    const fixture = await hugeResultFixture();
    const spec = () => fromBlocktraceJson('huge', fixture as unknown as Record<string, unknown>);
    expect(await check(spec, false)).toBe(1);
    let made: Snapshot | undefined;
    await FixtureChain.load(spec(), undefined, { save: (s) => void (made = s) });
    expect(made!.blocks[0]!.recording.length).toBeLessThan(500_000);
  }, SLOW);
});
