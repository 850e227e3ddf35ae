// The library API (src/api/index.ts) in the process, against the faces it shares a dispatcher with:
// its answers are the harness's bytes for the same request, its errors the same code and message,
// its `show` the command's text; a node followed through `upstream` (a blocktrace server on
// 127.0.0.1) traces as the fixture does; bad input is one clear thrown error.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { type Chain, openChain, RpcCallError } from '../src/api/index.ts';
import { BUN, CLI, ROOT } from './faces.ts';
import { serveFixture, type Served } from './helpers/browser.ts';

const FIXTURE = 'builtin:cancun-devnet';
let chain: Chain;
let hash: string;

async function harness(body: string): Promise<string> {
  const proc = Bun.spawn([BUN, CLI, '--replay-file', FIXTURE, '--no-cache', body], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return out.replace(/\n$/, '');
}

beforeAll(async () => {
  chain = await openChain(FIXTURE);
  const block = await chain.request<{ transactions: string[] }>('eth_getBlockByNumber', ['0x1', false]);
  hash = block.transactions[0]!;
});

test('requestRaw answers the harness\'s bytes; request, trace and traceBlock their results', async () => {
  const params = ['0x1', { tracer: 'callTracer', tracerConfig: { withLog: true } }];
  const raw = await chain.requestRaw('debug_traceBlockByNumber', params);
  expect(raw).toBe(await harness(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params })));
  const { result } = JSON.parse(raw) as { result: { txHash: string; result: unknown }[] };
  expect(await chain.traceBlock(1)).toEqual(result);
  expect(await chain.traceBlock(1n, { tracer: 'callTracer', tracerConfig: { withLog: true } })).toEqual(result);
  expect(await chain.trace(hash)).toEqual(result.find((r) => r.txHash === hash)!.result);
  const prestate = await chain.requestRaw('debug_traceBlockByNumber', ['0x1', { tracer: 'prestateTracer' }]);
  expect(JSON.parse(prestate).result).toEqual(await chain.traceBlock('0x1', { tracer: 'prestateTracer' }));
  const { hash: blockHash } = await chain.request<{ hash: string }>('eth_getBlockByNumber', ['0x1', false]);
  expect(await chain.traceBlock(blockHash)).toEqual(result);
}, 60_000);

test('an error answer is thrown with the code and message the faces answer', async () => {
  const params = ['0x1', { tracer: 'noSuchTracer' }];
  const answer = JSON.parse(await harness(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params }))) as { error: { code: number; message: string } };
  const thrown = await chain.request('debug_traceBlockByNumber', params).catch((e: unknown) => e);
  expect(thrown).toBeInstanceOf(RpcCallError);
  expect({ code: (thrown as RpcCallError).code, message: (thrown as RpcCallError).message }).toEqual(answer.error);
  const missing = await chain.trace(`0x${'ab'.repeat(32)}`).catch((e: unknown) => e as RpcCallError);
  expect(missing).toBeInstanceOf(RpcCallError);
  expect((missing as RpcCallError).message).toContain('not found');
}, 60_000);

test('show gives the text `blocktrace show` prints', async () => {
  const proc = Bun.spawn([BUN, CLI, 'show', FIXTURE, hash, '--no-cache'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore', env: { ...process.env, NO_COLOR: '1' } });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(await chain.show(hash)).toBe(out.replace(/\n$/, ''));
}, 60_000);

test('bad input: an unknown built-in chain, a missing file, a closed chain, a node that does not answer', async () => {
  await expect(openChain('builtin:nope')).rejects.toThrow('builtin:nope: no such built-in chain (there are builtin:prague-devnet and builtin:cancun-devnet)');
  await expect(openChain('/no/such/fixture.json')).rejects.toThrow('/no/such/fixture.json');
  const closed = await openChain('builtin:prague-devnet');
  await closed.close();
  await expect(closed.request('eth_blockNumber')).rejects.toThrow('the chain was closed');
  await expect(openChain({ upstream: 'http://127.0.0.1:9', timeoutMs: 2000 })).rejects.toThrow('cannot follow http://127.0.0.1:9: ');
}, 60_000);

let served: Served;
afterAll(async () => {
  await served?.stop();
});

test('{ upstream } follows a node and traces the transaction as the fixture does', async () => {
  served = await serveFixture(FIXTURE, ['--no-cache']);
  const followed = await openChain({ upstream: served.url });
  expect(await followed.trace(hash)).toEqual(await chain.trace(hash));
  expect(await followed.request('eth_blockNumber')).toBe(await chain.request('eth_blockNumber'));
  await followed.close();
}, 60_000);
