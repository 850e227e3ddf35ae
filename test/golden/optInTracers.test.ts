// The opt-in tracers (--all-tracers): go-ethereum's 4byteTracer and noopTracer (eth/tracers/native
// 4byte.go, noop.go; go-ethereum's tracer tests have no cases for them). 4byteTracer is checked
// against the callTracer tree of the same transactions, whose bytes are go-ethereum's; without the
// flag, the spec's refusal is unchanged.
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

const trace = async (tracer: string, all: boolean, block = '0x4'): Promise<string> =>
  (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: [block, { tracer }] }), createContext(chain, { log: () => {}, allTracers: all })))!;

interface Frame {
  type: string;
  to?: string;
  input: string;
  calls?: Frame[];
}

const PRECOMPILE = /^0x0{36}(0{2}(0[1-9a-f]|1[01])|0100)$/;

/** 4byte.go's counts, taken from a callTracer tree. */
function fromCallTree(frame: Frame, counts: Record<string, number> = {}): Record<string, number> {
  const bytes = (frame.input.length - 2) / 2;
  if (['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL'].includes(frame.type) && bytes >= 4 && !(frame.to !== undefined && PRECOMPILE.test(frame.to))) {
    const key = `${frame.input.slice(0, 10)}-${bytes - 4}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  for (const child of frame.calls ?? []) fromCallTree(child, counts);
  return counts;
}

test('without --all-tracers the opt-in tracers are refused as before', async () => {
  for (const tracer of ['4byteTracer', 'noopTracer', 'erc7562Tracer']) {
    expect(await trace(tracer, false)).toBe(
      `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"${tracer}\\" is not supported (supported: callTracer, prestateTracer)"}}`,
    );
  }
});

test('with it, an unknown tracer names every supported one', async () => {
  expect(await trace('nope', true)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"nope\\" is not supported (supported: 4byteTracer, callTracer, erc7562Tracer, flatCallTracer, muxTracer, noopTracer, prestateTracer)"}}');
});

test('4byteTracer: the selectors of every block of the chain, as the callTracer tree counts them, keys sorted', async () => {
  for (let n = 1n; n <= chain.head.number; n++) {
    const block = `0x${n.toString(16)}`;
    const fourByte = JSON.parse(await trace('4byteTracer', true, block)) as { result: { txHash: string; result: Record<string, number> }[] };
    const calls = JSON.parse(await trace('callTracer', true, block)) as { result: { txHash: string; result: Frame }[] };
    expect(fourByte.result.length).toBe(calls.result.length);
    for (const [i, tx] of fourByte.result.entries()) {
      expect(tx.txHash).toBe(calls.result[i]!.txHash);
      const expected = fromCallTree(calls.result[i]!.result);
      expect(tx.result).toEqual(expected);
      expect(Object.keys(tx.result)).toEqual(Object.keys(tx.result).sort());
    }
  }
});

test('noopTracer: {} for every transaction', async () => {
  const answer = JSON.parse(await trace('noopTracer', true)) as { result: { result: unknown }[] };
  expect(answer.result.length).toBeGreaterThan(0);
  for (const tx of answer.result) expect(tx.result).toEqual({});
});
