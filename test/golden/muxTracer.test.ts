// go-ethereum's muxTracer (eth/tracers/native/mux.go) on cancun-devnet block 0xa: each part of its
// answer is, byte for byte, the answer of that tracer alone (callTracer and prestateTracer bytes are
// go-ethereum's: test/golden/callTracer.test.ts, prestate.test.ts); its keys are sorted, as Go
// marshals a map.
import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const CANCUN = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
let chain: ChainView;
beforeAll(async () => {
  chain = await loadChain(CANCUN);
}, 60_000);

const ask = async (method: string, params: unknown[], all = true): Promise<string> =>
  (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), createContext(chain, { log: () => {}, allTracers: all })))!;
const results = async (tracer: string, tracerConfig?: unknown): Promise<{ txHash: string; result: any }[]> =>
  (JSON.parse(await ask('debug_traceBlockByNumber', ['0xa', tracerConfig === undefined ? { tracer } : { tracer, tracerConfig }])) as { result: { txHash: string; result: any }[] }).result;

test('each part equals its tracer alone, for every transaction of block 0xa', async () => {
  const parts: Record<string, unknown> = {
    prestateTracer: { diffMode: true },
    callTracer: { withLog: true },
    '4byteTracer': null,
    flatCallTracer: { convertParityErrors: true },
  };
  const mux = await results('muxTracer', parts);
  expect(mux.length).toBeGreaterThan(100);
  for (const [name, config] of Object.entries(parts)) {
    const alone = await results(name, config ?? undefined);
    expect(alone.length).toBe(mux.length);
    mux.forEach((tx, i) => {
      expect(tx.txHash).toBe(alone[i]!.txHash);
      expect(JSON.stringify(tx.result[name])).toBe(JSON.stringify(alone[i]!.result));
    });
  }
  expect(Object.keys(mux[0]!.result)).toEqual(['4byteTracer', 'callTracer', 'flatCallTracer', 'prestateTracer']);
});

test('prestateTracer without diffMode, beside callTracer with its defaults', async () => {
  const mux = await results('muxTracer', { prestateTracer: {}, callTracer: {} });
  const calls = await results('callTracer');
  const pre = await results('prestateTracer');
  mux.forEach((tx, i) => {
    expect(JSON.stringify(tx.result)).toBe(JSON.stringify({ callTracer: calls[i]!.result, prestateTracer: pre[i]!.result }));
  });
});

test('no parts: {} for each transaction', async () => {
  for (const config of [undefined, {}]) for (const tx of await results('muxTracer', config)) expect(tx.result).toEqual({});
});

test('a part that is not a tracer, or whose config is wrong, is refused before anything runs', async () => {
  expect(await ask('debug_traceBlockByNumber', ['0xa', { tracer: 'muxTracer', tracerConfig: { callTracer: {}, nope: {} } }])).toBe(
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"nope\\" is not supported (supported: 4byteTracer, callTracer, erc7562Tracer, flatCallTracer, muxTracer, noopTracer, prestateTracer)"}}',
  );
  expect(await ask('debug_traceBlockByNumber', ['0xa', { tracer: 'muxTracer', tracerConfig: { callTracer: { onlyTopCall: 'yes' } } }])).toBe(
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid tracerConfig for callTracer: onlyTopCall: Expected boolean"}}',
  );
  expect(await ask('debug_traceBlockByNumber', ['0xa', { tracer: 'muxTracer', tracerConfig: ['callTracer'] }])).toBe(
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid tracerConfig for muxTracer: expected a JSON object"}}',
  );
});

test('without --all-tracers, muxTracer is refused as before', async () => {
  expect(await ask('debug_traceBlockByNumber', ['0xa', { tracer: 'muxTracer', tracerConfig: { callTracer: {} } }], false)).toBe(
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"muxTracer\\" is not supported (supported: callTracer, prestateTracer)"}}',
  );
});

test('the bytes: each part is written as its tracer alone writes it', async () => {
  const hashes = (await results('callTracer')).map((tx) => tx.txHash);
  const body = (text: string): string => text.slice('{"jsonrpc":"2.0","id":1,"result":'.length, -1);
  for (const hash of hashes.slice(0, 40)) {
    const mux = await ask('debug_traceTransaction', [hash, { tracer: 'muxTracer', tracerConfig: { prestateTracer: { diffMode: true }, callTracer: {} } }]);
    const calls = body(await ask('debug_traceTransaction', [hash, { tracer: 'callTracer' }]));
    const pre = body(await ask('debug_traceTransaction', [hash, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]));
    expect(mux).toBe(`{"jsonrpc":"2.0","id":1,"result":{"callTracer":${calls},"prestateTracer":${pre}}}`);
  }
});

test('debug_traceCall: each part equals its tracer alone, for the calls of block 0xa at the block before', async () => {
  const hashes = (await results('callTracer')).map((tx) => tx.txHash).slice(0, 20);
  const body = (text: string): string => text.slice('{"jsonrpc":"2.0","id":1,"result":'.length, -1);
  for (const hash of hashes) {
    const tx = (JSON.parse(await ask('eth_getTransactionByHash', [hash])) as { result: { from: string; to: string | null; input: string; value: string } }).result;
    const call = { from: tx.from, to: tx.to, input: tx.input, value: tx.value };
    const mux = await ask('debug_traceCall', [call, '0x9', { tracer: 'muxTracer', tracerConfig: { prestateTracer: null, callTracer: {} } }]);
    const calls = body(await ask('debug_traceCall', [call, '0x9', { tracer: 'callTracer' }]));
    const pre = body(await ask('debug_traceCall', [call, '0x9', { tracer: 'prestateTracer' }]));
    expect(mux).toBe(`{"jsonrpc":"2.0","id":1,"result":{"callTracer":${calls},"prestateTracer":${pre}}}`);
  }
});
