// go-ethereum's flatCallTracer against reth's trace_transaction on cancun-devnet block 0xa (every
// transaction): the same frames, in the same order, with the same traceAddress, subtraces, block and
// transaction fields, actions and results, except where the two clients differ by design:
// - the top frame's gas and gasUsed: go-ethereum's callTracer frame holds the transaction's gas limit
//   and the receipt's gasUsed (eth/tracers/native/call.go OnTxStart/OnTxEnd, which call_flat.go
//   flattens); reth's root trace holds the gas the interpreter got, the limit less intrinsic gas, and
//   the execution gas before refunds (revm-inspectors src/tracing/builder/parity.rs, as
//   src/trace/render/parity.ts renders it);
// - `result` of a frame that failed other than by a revert, and of a suicide: go-ethereum omits it
//   (call_flat.go flatFromNested, `omitempty` on a nil *flatCallResult), reth writes null (alloy
//   LocalizedTransactionTrace);
// - error words: go-ethereum's own (`execution reverted`), Parity's with convertParityErrors
//   (call_flat.go parityErrorMapping), which here equal reth's (`Reverted`, `Out of gas`);
// - action key order: go-ethereum's gencodec order (callType first; creationMethod first),
//   alloy's (from first; creationMethod last);
// - CALL/STATICCALL into a precompile: reth (and anvil) keep them, go-ethereum drops them unless
//   includePrecompiles (call_flat.go OnExit); block 0xa calls none, go-ethereum's own cases do
//   (call_tracer_flat/include_precompiled.json, staticcall_precompiled.json: flatCallTracer.test.ts).
import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const CANCUN = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
type Json = Record<string, any>;
let chain: ChainView;
let hashes: string[];
beforeAll(async () => {
  chain = await loadChain(CANCUN);
  hashes = ((await call('eth_getBlockByNumber', ['0xa', false])) as Json)['transactions'];
}, 60_000);

async function call(method: string, params: unknown[], all = true): Promise<unknown> {
  const text = (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), createContext(chain, { log: () => {}, allTracers: all })))!;
  const answer = JSON.parse(text) as { result?: unknown; error?: unknown };
  if (answer.error !== undefined) throw new Error(text);
  return answer.result;
}
const flat = async (hash: string, tracerConfig: Json): Promise<Json[]> => (await call('debug_traceTransaction', [hash, { tracer: 'flatCallTracer', tracerConfig }])) as Json[];
const PRECOMPILE = /^0x0{38}(0[1-9a]|0[b-f]|1[01])$/;
const sorted = (o: Json): Json => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));

test('block 0xa has traces of every shape this comparison covers', async () => {
  const all = (await call('trace_block', ['0xa'])) as Json[];
  expect(hashes.length).toBeGreaterThan(100);
  expect(all.some((t) => t['error'] === 'Reverted')).toBe(true);
  expect(all.some((t) => t['error'] === 'Out of gas')).toBe(true);
  expect(all.some((t) => t['action']['creationMethod'] === 'create2')).toBe(true);
});

test('flatCallTracer (includePrecompiles, convertParityErrors) equals trace_transaction but for the differences by design', async () => {
  for (const hash of hashes) {
    const geth = await flat(hash, { includePrecompiles: true, convertParityErrors: true });
    const reth = (await call('trace_transaction', [hash])) as Json[];
    const tx = (await call('eth_getTransactionByHash', [hash])) as Json;
    const receipt = (await call('eth_getTransactionReceipt', [hash])) as Json;
    expect(geth.length).toBe(reth.length);
    geth.forEach((g, i) => {
      const r = reth[i]!;
      for (const key of ['blockHash', 'blockNumber', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type', 'error']) expect(g[key]).toEqual(r[key]);
      const gAction = { ...g['action'] };
      const rAction = { ...r['action'] };
      const gResult = g['result'] === undefined ? undefined : { ...g['result'] };
      const rResult = r['result'] === null ? undefined : { ...r['result'] };
      if (i === 0) {
        expect(gAction['gas']).toBe(tx['gas']);
        expect(BigInt(rAction['gas'])).toBeLessThan(BigInt(tx['gas']));
        delete gAction['gas'];
        delete rAction['gas'];
        if (gResult !== undefined) {
          expect(gResult['gasUsed']).toBe(receipt['gasUsed']);
          delete gResult['gasUsed'];
          delete rResult!['gasUsed'];
        }
      }
      expect(sorted(gAction)).toEqual(sorted(rAction));
      expect(gResult === undefined ? undefined : sorted(gResult)).toEqual(rResult === undefined ? undefined : sorted(rResult));
      if (g['result'] === undefined) expect(g['type'] === 'suicide' || (g['error'] !== undefined && g['error'] !== 'Reverted')).toBe(true);
      const first = Object.keys(g['action'])[0];
      expect(first).toBe(g['type'] === 'call' ? 'callType' : g['type'] === 'create' ? 'creationMethod' : 'address');
    });
  }
});

test("by default, go-ethereum's error words (and no calls into precompiles)", async () => {
  for (const hash of hashes) {
    const geth = await flat(hash, {});
    const reth = (await call('trace_transaction', [hash])) as Json[];
    const kept = reth.filter((r) => !(r['type'] === 'call' && ['call', 'staticcall'].includes(r['action']['callType']) && PRECOMPILE.test(r['action']['to'])));
    expect(geth.map((g) => [g['action']['from'], g['action']['to'], g['action']['input'] ?? g['action']['init']])).toEqual(kept.map((r) => [r['action']['from'], r['action']['to'], r['action']['input'] ?? r['action']['init']]));
    for (const [i, g] of geth.entries()) {
      const words: Record<string, string> = { Reverted: 'execution reverted', 'Out of gas': 'out of gas' };
      expect(g['error']).toBe(kept[i]!['error'] === undefined ? undefined : words[kept[i]!['error']]);
    }
  }
});

test('without --all-tracers, flatCallTracer is refused byte for byte as before', async () => {
  const text = await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0xa', { tracer: 'flatCallTracer' }] }), createContext(chain, { log: () => {} }));
  expect(text).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"flatCallTracer\\" is not supported (supported: callTracer, prestateTracer)"}}');
});

test('debug_traceCall: no block or transaction in the flat traces (an empty tracer Context)', async () => {
  const result = (await call('debug_traceCall', [{ from: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8' }, '0xa', { tracer: 'flatCallTracer' }])) as Json[];
  expect(result.length).toBe(1);
  expect([result[0]!['blockHash'], result[0]!['blockNumber'], result[0]!['transactionHash'], result[0]!['transactionPosition']]).toEqual([null, 0, null, 0]);
});
