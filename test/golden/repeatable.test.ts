// Tracing is repeatable and leaves the served state alone: the same request answers the same bytes
// on a fresh chain, on a chain whose recordings were dropped (the load's kept ones too), and after every other block of the
// chain was traced in between (in an order that jumps backwards, so each run starts from the stored
// parent root rather than from whatever state the last run left).
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { FixtureChain } from '../../src/replay/chain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const FIXTURE = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
const METHODS = [
  (n: string) => `{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["${n}",{"tracer":"callTracer","tracerConfig":{"withLog":true}}]}`,
  (n: string) => `{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["${n}",{"tracer":"prestateTracer","tracerConfig":{"diffMode":true}}]}`,
  (n: string) => `{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["${n}",{"tracer":"prestateTracer"}]}`,
  (n: string) => `{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["${n}"]}`,
];

describe('tracing twice gives identical bytes and leaves the served state unchanged', () => {
  test('every frame kind of the cancun chain, forwards then backwards, cache dropped in between', async () => {
    const fresh = createContext(await loadChain(FIXTURE), { log: () => {} });
    const blocks = Array.from({ length: 12 }, (_, i) => `0x${(i + 1).toString(16)}`);
    const first = new Map<string, string>();
    for (const n of blocks) for (const m of METHODS) first.set(m(n), (await dispatch(m(n), fresh))!);

    const kinds = new Set(first.get(METHODS[0]!('0x5'))!.match(/"type":"[A-Z0-9]+"/g));
    for (const n of blocks) for (const k of first.get(METHODS[0]!(n))!.match(/"type":"[A-Z0-9]+"/g) ?? []) kinds.add(k);
    expect([...kinds].sort()).toEqual(
      ['CALL', 'CALLCODE', 'CREATE', 'CREATE2', 'DELEGATECALL', 'SELFDESTRUCT', 'STATICCALL'].map((k) => `"type":"${k}"`),
    );

    (fresh.chain as FixtureChain).clearCaches(true);
    for (const n of [...blocks].reverse()) {
      for (const m of METHODS) expect(await dispatch(m(n), fresh)).toBe(first.get(m(n))!);
    }
  });
});

describe('a recording without state (callTracer, trace_block) and one with it (prestateTracer) agree', () => {
  test('callTracer then prestateTracer, and the other way round, give the same bytes per block', async () => {
    const first = createContext(await loadChain(FIXTURE), { log: () => {} });
    const second = createContext(await loadChain(FIXTURE), { log: () => {} });
    for (let i = 1; i <= 12; i++) {
      const n = `0x${i.toString(16)}`;
      const [calls, prestate, parity] = [METHODS[0]!(n), METHODS[2]!(n), METHODS[3]!(n)];
      const a = [await dispatch(calls, first), await dispatch(parity, first), await dispatch(prestate, first)];
      const b = [await dispatch(prestate, second), await dispatch(calls, second), await dispatch(parity, second)];
      expect([b[1], b[2], b[0]]).toEqual(a);
    }
  }, 120_000);
});
