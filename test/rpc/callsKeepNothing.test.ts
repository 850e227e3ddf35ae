// Calls of every kind run on the state after a block and keep nothing of it: after many distinct
// state-changing calls the replay's state database holds exactly the nodes it held (a call's state
// once reached it: eth_call through ethereumjs's state copy, debug_traceCall and trace_call through
// the last commit of their transaction, eth_simulateV1 through the roots of its blocks), and the
// chain's answers are unchanged.
import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const CANCUN = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
const TOKEN = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const HOLDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

let chain: ChainView;
beforeAll(async () => {
  chain = await loadChain(CANCUN);
}, 60_000);

const ask = async (method: string, params: unknown[]): Promise<string> =>
  (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), createContext(chain, { log: () => {} })))!;

/** The replay's state database (a bench-style reach into the chain's private state manager). */
const databaseSize = (): number => (chain as unknown as { stateManager: { database(): Map<string, unknown> } }).stateManager.database().size;

test('distinct token transfers by eth_call, eth_estimateGas, debug_traceCall, trace_call, trace_callMany and eth_simulateV1 (with a deployment) add no node to the state database', async () => {
  const before = databaseSize();
  const balance = await ask('eth_call', [{ to: TOKEN, data: `0x70a08231${HOLDER.slice(2).padStart(64, '0')}` }, 'latest']);
  for (let i = 0; i < 8; i++) {
    const to = (0x1000 + i).toString(16).padStart(64, '0');
    const call = { from: HOLDER, to: TOKEN, data: `0xa9059cbb${to}${'1'.padStart(64, '0')}` };
    for (const [method, params] of [
      ['eth_call', [call, 'latest']],
      ['eth_estimateGas', [call, 'latest']],
      ['debug_traceCall', [call, 'latest', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]],
      ['trace_call', [call, ['trace', 'stateDiff']]],
      ['trace_callMany', [[[call, ['trace']], [call, ['stateDiff']]]]],
      // simulated blocks are hashed (their roots are in the answer); a deployment writes code
      ['eth_simulateV1', [{ blockStateCalls: [{ calls: [call, { from: HOLDER, data: `0x600${i}600c60003960016000f3${`0${i}`.slice(-2)}` }] }, { calls: [call] }] }, 'latest']],
    ] as const) {
      expect(await ask(method, [...params])).toContain('"result"');
    }
  }
  expect(databaseSize()).toBe(before);
  expect(await ask('eth_call', [{ to: TOKEN, data: `0x70a08231${HOLDER.slice(2).padStart(64, '0')}` }, 'latest'])).toBe(balance);
}, 60_000);
