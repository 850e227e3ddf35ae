// A real server on 127.0.0.1 under concurrent load: 200 requests in flight from several clients,
// mixed methods and blocks, each answered exactly as it is when asked alone; and a long trace does
// not hold up cheap requests, nor, past its deadline, its own client.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { bytesToHex } from '@ethereumjs/util';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { createApp, type App } from '../src/server/app.ts';
import { PRAGUE } from './faces.ts';
import { loadFixture, slowBlockFixture } from '../bench/pathological.ts';

const started: App[] = [];
afterAll(async () => {
  for (const app of started) await app.stop(true);
});

function serve(ctx: ReturnType<typeof createContext>): string {
  const app = createApp({ ctx, maxBody: 1024 * 1024 }).listen({ hostname: '127.0.0.1', port: 0 });
  started.push(app);
  return `http://127.0.0.1:${app.server!.port}/`;
}

const post = (url: string, body: string): Promise<string> =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) => r.text());

describe('200 requests in flight from 4 clients', () => {
  const bodies: string[] = [];
  const alone: string[] = [];
  let url: string;

  beforeAll(async () => {
    // the reference answers come one at a time from one chain; the server runs on a second, cold one
    const reference = createContext(await loadChain(PRAGUE), { log: () => {} });
    const chain = reference.chain;
    const txs: string[] = [];
    for (let n = 1n; n <= chain.head.number; n++) for (const tx of chain.blockByNumber(n)!.block.transactions) txs.push(bytesToHex(tx.hash()));
    const blocks = ['0x1', '0x2', '0x3', '0x4', '0x5', '0x6', '0x7', 'latest', 'earliest', '0x3f4'];
    const kinds = [
      (b: string) => ['debug_traceBlockByNumber', [b, { tracer: 'callTracer', tracerConfig: { withLog: true } }]],
      (b: string) => ['debug_traceBlockByNumber', [b, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]],
      (b: string) => ['debug_traceBlockByNumber', [b, { tracer: 'prestateTracer' }]],
      (b: string) => ['trace_block', [b]],
      (b: string) => ['eth_getBlockByNumber', [b, true]],
      () => ['eth_blockNumber', []],
      (_: string, i: number) => ['debug_traceTransaction', [txs[i % txs.length], { tracer: 'callTracer' }]],
      (_: string, i: number) => ['trace_transaction', [txs[(i * 7) % txs.length]]],
      (_: string, i: number) => ['eth_getTransactionReceipt', [txs[(i * 3) % txs.length]]],
      (b: string) => ['debug_traceBlockByNumber', [b, { tracer: 'noSuchTracer' }]],
    ] as const;
    for (let i = 0; i < 200; i++) {
      const [method, params] = kinds[i % kinds.length]!(blocks[(i * 3) % blocks.length]!, i);
      const request = { jsonrpc: '2.0', id: i, method, params };
      // every tenth body is a small batch
      bodies.push(i % 10 === 9 ? JSON.stringify([request, { jsonrpc: '2.0', id: `b${i}`, method: 'eth_chainId' }]) : JSON.stringify(request));
    }
    for (const body of bodies) alone.push((await dispatch(body, reference))!);
    url = serve(createContext(await loadChain(PRAGUE), { log: () => {} }));
  }, 60_000);

  test('every answer equals the one given alone', async () => {
    const clients = 4;
    const answers = new Array<string>(bodies.length);
    await Promise.all(
      Array.from({ length: clients }, (_, c) =>
        Promise.all(bodies.map((body, i) => (i % clients === c ? post(url, body).then((a) => (answers[i] = a)) : undefined))),
      ),
    );
    for (const [i, answer] of answers.entries()) expect(answer).toBe(alone[i]!);
    expect(alone.filter((a) => a.includes('"result":[{')).length).toBeGreaterThan(50);
  }, 60_000);
});

describe('a long trace and cheap requests', () => {
  let fixture: Awaited<ReturnType<typeof slowBlockFixture>>;
  let slow: Awaited<ReturnType<typeof loadFixture>>;
  beforeAll(async () => {
    fixture = await slowBlockFixture();
    slow = await loadFixture('slow-block', fixture);
  }, 60_000);
  const traceBlock = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x1', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }] });
  const blockNumber = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'eth_blockNumber', params: [] });

  test('eth_blockNumber answers while a forty-transaction trace is still running', async () => {
    const url = serve(createContext(slow, { traceTimeoutMs: 0, log: () => {} }));
    let traceDone = false;
    const tracing = post(url, traceBlock).then((a) => {
      traceDone = true;
      return a;
    });
    await Bun.sleep(20);
    expect(await post(url, blockNumber)).toBe('{"jsonrpc":"2.0","id":2,"result":"0x1"}');
    expect(traceDone).toBe(false); // answered first: the trace is still going
    expect(await tracing).toStartWith('{"jsonrpc":"2.0","id":1,"result":[{"txHash"');
  }, 60_000);

  test('past --trace-timeout the client gets -32000 execution timeout; the server serves on, and the trace later', async () => {
    const cold = await loadFixture('slow-block', fixture);
    const url = serve(createContext(cold, { traceTimeoutMs: 100, log: () => {} }));
    expect(await post(url, traceBlock)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"execution timeout"}}');
    expect(await post(url, blockNumber)).toBe('{"jsonrpc":"2.0","id":2,"result":"0x1"}');
    // the recording was not thrown away: once it is done, the same request is answered in time
    await cold.recordBlock(cold.blockByNumber(1n)!);
    expect(await post(url, traceBlock)).toStartWith('{"jsonrpc":"2.0","id":1,"result":[{"txHash"');
  }, 60_000);
});

test('memory is flat: the JS heap after a full collection does not grow from round to round of load', async () => {
  const ctx = createContext(await loadChain(PRAGUE), { traceTimeoutMs: 5000, log: () => {} });
  const app = createApp({ ctx, maxBody: 1024 * 1024 });
  const r = (method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const bodies = [
    r('debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
    r('debug_traceBlockByNumber', ['0x3', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
    r('trace_block', ['0x4']),
    '{"jsonrpc":"2.0","id":1,',
    r('no_such_method', []),
    r('eth_getBlockByNumber', ['latest', true]),
  ];
  const heap: number[] = [];
  for (let round = 0; round < 5; round++) {
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        app.handle(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[i % bodies.length] })).then((res) => res.text()),
      ),
    );
    Bun.gc(true);
    heap.push(process.memoryUsage().heapUsed);
  }
  // round 0 warms caches; after it, 600 more requests a round leave less than 2 MB behind in total
  expect((heap[4]! - heap[1]!) / 2 ** 20).toBeLessThan(2);
}, 60_000);
