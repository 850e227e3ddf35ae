// Blocks that are hard on a tracer, built with ethereumjs in the test (bench/pathological.ts) and
// traced through the dispatcher with every tracer: a 1024-deep call chain, a block of failing
// CREATEs, 5000 logs in one transaction, a block within 1% of its gas limit of SSTOREs. Nothing may
// overflow the stack, and memory stays bounded.
import { beforeAll, describe, expect, test } from 'bun:test';
import { createContext, type RpcContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { CREATES, deepCallFixture, FACTORY, heavyFixture, LOGS, loadFixture } from '../bench/pathological.ts';

const req = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };
const PRESTATE = { tracer: 'prestateTracer' };
const DIFF = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

async function call(ctx: RpcContext, method: string, params: unknown): Promise<unknown> {
  const text = await dispatch(req(method, params), ctx);
  const answer = JSON.parse(text!) as { result?: unknown; error?: unknown };
  if (answer.error !== undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

interface Frame {
  type: string;
  error?: string;
  calls?: Frame[];
  logs?: unknown[];
}

/** Depth of a callTracer tree, walked without recursion. */
function treeDepth(root: Frame): number {
  let max = 0;
  const todo: [Frame, number][] = [[root, 1]];
  while (todo.length > 0) {
    const [frame, depth] = todo.pop()!;
    max = Math.max(max, depth);
    for (const child of frame.calls ?? []) todo.push([child, depth + 1]);
  }
  return max;
}

let rssBefore = 0;
let deep: RpcContext;
let heavy: RpcContext;

beforeAll(async () => {
  rssBefore = process.memoryUsage.rss();
  // no deadline: these tests measure what the tracer survives, not how fast a shared CI box is
  deep = createContext(await loadFixture('deep-call', await deepCallFixture()), { traceTimeoutMs: 0, log: () => {} });
  heavy = createContext(await loadFixture('heavy', await heavyFixture()), { traceTimeoutMs: 0, log: () => {} });
}, 120_000);

describe('1024-deep call chain (Homestead, no 63/64 rule)', () => {
  test('callTracer nests 1026 frames: the transaction, 1024 self-calls, the call refused at the limit', async () => {
    const [{ result }] = (await call(deep, 'debug_traceBlockByNumber', ['0x1', CALL_TRACER])) as [{ result: Frame }];
    expect(treeDepth(result)).toBe(1026);
    let frame = result;
    while (frame.calls !== undefined) frame = frame.calls[0]!;
    expect(frame.error).toBe('max call depth exceeded');
  }, 60_000);
  test('trace_block: one flat trace per frame, traceAddress as long as the depth', async () => {
    const traces = (await call(deep, 'trace_block', ['0x1'])) as { traceAddress: number[]; type: string }[];
    const calls = traces.filter((t) => t.type === 'call');
    expect(calls.length).toBe(1026);
    expect(Math.max(...calls.map((t) => t.traceAddress.length))).toBe(1025);
  }, 60_000);
  test('prestateTracer, plain and diff', async () => {
    const [plain] = (await call(deep, 'debug_traceBlockByNumber', ['0x1', PRESTATE])) as [{ result: Record<string, unknown> }];
    expect(Object.keys(plain.result).length).toBeGreaterThanOrEqual(2);
    const [diff] = (await call(deep, 'debug_traceBlockByNumber', ['0x1', DIFF])) as [{ result: { pre: object; post: object } }];
    expect(Object.keys(diff.result)).toEqual(['post', 'pre']);
  }, 60_000);
});

describe('a transaction with 5000 logs', () => {
  test('callTracer withLog carries every log, positions and indexes in order', async () => {
    const [{ result }] = (await call(heavy, 'debug_traceBlockByNumber', ['0x1', CALL_TRACER])) as [{ result: Frame }];
    const logs = result.logs as { index: string; position: string }[];
    expect(logs.length).toBe(LOGS);
    expect(logs[LOGS - 1]!.index).toBe(`0x${(LOGS - 1).toString(16)}`);
    expect(logs.every((l) => l.position === '0x0')).toBe(true);
  }, 60_000);
  test('trace_block and prestateTracer', async () => {
    expect(((await call(heavy, 'trace_block', ['0x1'])) as unknown[]).length).toBe(1);
    await call(heavy, 'debug_traceBlockByNumber', ['0x1', PRESTATE]);
    await call(heavy, 'debug_traceBlockByNumber', ['0x1', DIFF]);
  }, 60_000);
});

describe('a block of failing CREATEs', () => {
  test('every create frame failed, in callTracer and trace_block', async () => {
    const results = (await call(heavy, 'debug_traceBlockByNumber', ['0x2', CALL_TRACER])) as { result: Frame }[];
    expect(results.length).toBe(25);
    const factoryCalls = results.slice(0, 20).map((r) => r.result);
    for (const top of factoryCalls) {
      expect(top.calls!.length).toBe(CREATES);
      expect(top.calls!.every((c) => c.type === 'CREATE' && c.error === 'execution reverted')).toBe(true);
    }
    for (const { result } of results.slice(20)) expect(result.error).toBe('execution reverted');
    const traces = (await call(heavy, 'trace_block', ['0x2'])) as { type: string; error?: string; action: { from?: string } }[];
    const creates = traces.filter((t) => t.type === 'create');
    expect(creates.length).toBe(20 * CREATES + 5);
    expect(creates.every((t) => t.error === 'Reverted')).toBe(true);
    expect(creates.filter((t) => t.action.from === FACTORY).length).toBe(20 * CREATES);
  }, 60_000);
  test('prestateTracer diff shows the factory nonce moving by one per create', async () => {
    const results = (await call(heavy, 'debug_traceBlockByNumber', ['0x2', DIFF])) as { result: { pre: Record<string, { nonce?: number }>; post: Record<string, { nonce?: number }> } }[];
    const { pre, post } = results[0]!.result;
    expect((post[FACTORY]!.nonce ?? 0) - (pre[FACTORY]!.nonce ?? 0)).toBe(CREATES);
  }, 60_000);
});

describe('a block filled with SSTOREs', () => {
  test('gas used within 1% of the limit; every written slot in the prestate diff', async () => {
    const block = heavy.chain.blockByNumber(3n)!.block.header;
    expect(Number(block.gasUsed) / Number(block.gasLimit)).toBeGreaterThan(0.99);
    const results = (await call(heavy, 'debug_traceBlockByNumber', ['0x3', DIFF])) as { result: { post: Record<string, { storage?: object }> } }[];
    const slots = results.reduce((n, r) => n + Object.keys(Object.values(r.result.post).find((a) => a.storage)?.storage ?? {}).length, 0);
    // 20000 + 2100 gas a fresh slot: the block holds about 30M / 22.2k of them
    expect(slots).toBeGreaterThan(1300);
    expect(((await call(heavy, 'trace_block', ['0x3'])) as unknown[]).length).toBe(10);
    await call(heavy, 'debug_traceBlockByNumber', ['0x3', CALL_TRACER]);
    await call(heavy, 'debug_traceBlockByNumber', ['0x3', PRESTATE]);
  }, 60_000);
});

test('memory stays bounded (issue 8 target: 400 MB for the whole process)', () => {
  Bun.gc(true);
  const grown = (process.memoryUsage.rss() - rssBefore) / 2 ** 20;
  expect(grown).toBeLessThan(300);
});
