// Upstream mode and capture against a real anvil (the pinned @foundry-rs/anvil-linux-amd64) with the
// prague-devnet corpus chain mined into it: the traces must be the bytes fixture mode gives for the
// same chain, through the dispatcher and through the harness face; a capture of a block range must
// replay offline to the same bytes again; a dead upstream must give an error, not a hang.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { capture } from '../src/upstream/capture.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { upstreamForwarder } from '../src/upstream/forward.ts';
import { UpstreamChain } from '../src/upstream/upstreamChain.ts';
import { PRAGUE, runHarness } from './faces.ts';
import { mineCorpusChain, rpc, startAnvil, type Anvil } from './helpers/anvil.ts';

/** The prague-devnet chain's genesis.json (the anvil corpus's, as its fixture in golden/ holds it). */
const GENESIS = join(mkdtempSync(join(tmpdir(), 'blocktrace-upstream-genesis-')), 'genesis.json');
writeFileSync(GENESIS, JSON.stringify(JSON.parse(readFileSync(PRAGUE, 'utf8')).genesis));
const HEAD = 7;
/** Per test and hook: anvil, subprocesses and replays on a loaded 2-core machine. */
const SLOW = 30_000;
const body = (method: string, params: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Every tracing request the corpus records per block, for blocks 1..HEAD. */
function traceRequests(from = 1, to = HEAD): string[] {
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const b = `0x${n.toString(16)}`;
    out.push(
      body('trace_block', [b]),
      body('debug_traceBlockByNumber', [b, { tracer: 'callTracer' }]),
      body('debug_traceBlockByNumber', [b, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      body('debug_traceBlockByNumber', [b, { tracer: 'prestateTracer' }]),
      body('debug_traceBlockByNumber', [b, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
    );
  }
  return out;
}

async function upstreamContext(url: string, genesis: string | undefined, timeoutMs?: number): Promise<RpcContext> {
  const client = new UpstreamClient(url, timeoutMs);
  return createContext(await UpstreamChain.connect(client, genesis), { log: () => {}, forward: upstreamForwarder(client, ['anvil_nodeInfo']) });
}

let anvil: Anvil;
let fixture: RpcContext;
let upstream: RpcContext;
const expected = new Map<string, string | undefined>();

beforeAll(async () => {
  anvil = await startAnvil(PRAGUE);
  await mineCorpusChain(anvil.url, PRAGUE);
  fixture = createContext(await loadChain(PRAGUE), { log: () => {} });
  for (const request of traceRequests()) expected.set(request, await dispatch(request, fixture));
  upstream = await upstreamContext(anvil.url, GENESIS);
}, SLOW);

afterAll(async () => {
  await anvil?.stop();
}, SLOW);

describe('upstream mode (anvil + prague-devnet)', () => {
  test('every block: trace_block, callTracer and prestateTracer give the bytes of fixture mode', async () => {
    for (const [request, want] of expected) {
      const got = await dispatch(request, upstream);
      expect(got).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
      expect(got).toBe(want!);
    }
  }, SLOW);

  test('transactions by hash: debug_traceTransaction and trace_transaction', async () => {
    const block = await rpc<{ transactions: string[] }>(anvil.url, 'eth_getBlockByNumber', ['0x3', false]);
    for (const hash of block.transactions.slice(0, 4)) {
      for (const request of [body('debug_traceTransaction', [hash, { tracer: 'callTracer' }]), body('trace_transaction', [hash])]) {
        expect(await dispatch(request, upstream)).toBe((await dispatch(request, fixture))!);
      }
    }
  }, SLOW);

  test('trace_replay*, trace_filter, trace_get, debug_traceCall, trace_call and trace_callMany: answered here, the bytes of fixture mode', async () => {
    const block = await rpc<{ transactions: { hash: string; from: string; to: string | null; input: string; gas: string }[] }>(anvil.url, 'eth_getBlockByNumber', ['0x3', true]);
    const tx = block.transactions.find((t) => t.to !== null)!;
    const call = { from: tx.from, to: tx.to, input: tx.input, gas: tx.gas };
    const requests = [
      body('trace_replayBlockTransactions', ['0x3', ['trace', 'stateDiff']]),
      body('trace_replayTransaction', [tx.hash, ['trace', 'stateDiff']]),
      body('trace_filter', [{ fromBlock: '0x1', toBlock: '0x4', toAddress: [tx.to] }]),
      body('trace_get', [tx.hash, ['0x0']]),
      body('debug_traceCall', [call, '0x2', { tracer: 'callTracer' }]),
      body('debug_traceCall', [call, '0x2', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
      body('trace_call', [call, ['trace', 'stateDiff'], '0x2']),
      body('trace_callMany', [[[call, ['trace']], [call, ['stateDiff']]], '0x2']),
    ];
    for (const request of requests) {
      const want = (await dispatch(request, fixture))!;
      expect(want).toContain('"result"');
      expect(await dispatch(request, upstream)).toBe(want);
    }
  }, SLOW);

  test('methods blocktrace does not implement, and the eth_* methods, are the upstream answers unchanged', async () => {
    // the Otterscan API too: the node indexes its own chain (blocktrace answers ots_* itself for a fixture)
    const otterscan = [body('ots_getApiLevel', []), body('ots_getBlockDetails', [2]), body('ots_searchTransactionsBefore', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 0, 2]), body('erigon_getHeaderByNumber', [1])];
    for (const request of [body('anvil_nodeInfo', [], 'a'), body('eth_blockNumber', [], 7), body('eth_getBalance', ['0x00000000000000000000000000000000000feed1', '0x2']), ...otterscan]) {
      const direct = await (await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request })).text();
      expect(await dispatch(request, upstream)).toBe(direct.trimEnd());
    }
    // the node's control methods are never passed on, and other namespaces only when named (--forward)
    for (const method of ['admin_addPeer', 'personal_unlockAccount', 'miner_start', 'debug_setHead', 'anvil_setBalance', 'evm_mine']) {
      expect(await dispatch(body(method, [], 9), upstream)).toBe(`{"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"the method ${method} does not exist/is not available"}}`);
    }
    // in a batch, each call goes its own way
    const batch = await dispatch(`[${body('eth_chainId', [], 1)},${body('trace_block', ['0x1'], 2)}]`, upstream);
    expect(JSON.parse(batch!).map((a: { id: number }) => a.id)).toEqual([1, 2]);
  }, SLOW);

  test('without --genesis the fork schedule comes from anvil_nodeInfo: same bytes', async () => {
    const bare = await upstreamContext(anvil.url, undefined);
    for (const request of traceRequests(4, 4)) expect(await dispatch(request, bare)).toBe(expected.get(request)!);
  }, SLOW);

  test('the harness face: --upstream answers as --replay-file does', async () => {
    const lines = [...traceRequests(2, 2), body('debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }])];
    const viaUpstream = await runHarness(['--genesis', GENESIS, '--upstream', anvil.url], lines.join('\n'));
    const viaFixture = await runHarness(['--replay-file', PRAGUE], lines.join('\n'));
    expect(viaUpstream.code).toBe(0);
    expect(viaUpstream.stdout).toBe(viaFixture.stdout);
    expect(viaUpstream.stdout.split('\n').length).toBe(lines.length + 1);
  }, SLOW);
});

describe('capture', () => {
  test('blocks 2..5 captured, then replayed offline: the same bytes again', async () => {
    const { fixture: captured, accounts } = await capture(new UpstreamClient(anvil.url), GENESIS, 2n, 5n);
    expect(accounts).toBeGreaterThan(5);
    const file = join(mkdtempSync(join(tmpdir(), 'blocktrace-capture-')), 'capture.json');
    writeFileSync(file, JSON.stringify(captured));
    const offline = createContext(await loadChain(file), { log: () => {} });
    expect(offline.chain.label).toContain('blocktrace-capture');
    for (const request of traceRequests(2, 5)) expect(await dispatch(request, offline)).toBe(expected.get(request)!);
    // blocks outside the capture are not there
    expect(await dispatch(body('trace_block', ['0x6']), offline)).toContain('"error"');
  }, SLOW);

  test('the CLI writes a fixture the harness replays, and never overwrites it', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'blocktrace-capture-')), 'block3.json');
    const first = await runHarness(['capture', '--rpc', anvil.url, '--block', '3', '--out', out]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('captured blocks 3..3');
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('blocktrace-capture/v1');
    const lines = traceRequests(3, 3);
    const replayed = await runHarness(['--replay-file', out], lines.join('\n'));
    expect(replayed.stdout).toBe(lines.map((l) => `${expected.get(l)}\n`).join(''));
    const again = await runHarness(['capture', '--rpc', anvil.url, '--block', '3', '--out', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('never overwritten');
  }, SLOW);
});

/** A client that runs `hook` before its `at`-th storage read. */
class HookedClient extends UpstreamClient {
  private reads = 0;
  constructor(url: string, private readonly at: number, private readonly hook: () => Promise<void>) {
    super(url, 2000);
  }
  override async call<T>(method: string, params: readonly unknown[]): Promise<T> {
    if (method === 'eth_getStorageAt' && ++this.reads === this.at) await this.hook();
    return super.call<T>(method, params);
  }
}

describe('a failing upstream', () => {
  test('killed mid-run: a JSON-RPC error naming the upstream, not a hang', async () => {
    const doomed = await startAnvil(PRAGUE);
    try {
      await mineCorpusChain(doomed.url, PRAGUE);
      const client = new HookedClient(doomed.url, 3, () => doomed.stop());
      const ctx = createContext(await UpstreamChain.connect(client, GENESIS), { log: () => {}, forward: upstreamForwarder(client) });
      const answers = [
        await dispatch(body('debug_traceBlockByNumber', ['0x5', { tracer: 'prestateTracer' }]), ctx),
        await dispatch(body('trace_block', ['0x6']), ctx),
        await dispatch(body('eth_blockNumber', []), ctx),
      ];
      // a hang would fail the test by its timeout
      expect(JSON.parse(answers[0]!).error).toEqual({ code: -32000, message: expect.stringContaining(`upstream ${doomed.url}: eth_getStorageAt: unreachable`) });
      for (const answer of answers.slice(1)) expect(JSON.parse(answer!).error.message).toStartWith(`upstream ${doomed.url}: `);
    } finally {
      await doomed.stop().catch(() => undefined);
    }
  }, SLOW);

  test('a run that failed on an upstream error is not kept: the retry gives the right bytes', async () => {
    let fail = true;
    const client = new HookedClient(anvil.url, 4, async () => {
      if (fail) throw new Error('injected failure');
    });
    const ctx = createContext(await UpstreamChain.connect(client, GENESIS), { log: () => {} });
    const request = body('debug_traceBlockByNumber', ['0x6', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]);
    expect(await dispatch(request, ctx)).toContain('"error"');
    fail = false;
    expect(await dispatch(request, ctx)).toBe(expected.get(request)!);
    expect(await dispatch(body('trace_block', ['0x5']), ctx)).toBe(expected.get(body('trace_block', ['0x5']))!);
  }, SLOW);

  test('an unreachable upstream at start: one line on stderr, exit 2', async () => {
    const dead = await startAnvil(PRAGUE);
    await dead.stop();
    const run = await runHarness(['--upstream', dead.url, body('trace_block', ['0x1'])]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`upstream ${dead.url}: eth_chainId: unreachable`);
  }, SLOW);

  test('a block the node does not have: the trace methods answer as for an unknown block', async () => {
    expect(await dispatch(body('trace_block', ['0x3f4']), upstream)).toBe((await dispatch(body('trace_block', ['0x3f4']), fixture))!);
  }, SLOW);
});
