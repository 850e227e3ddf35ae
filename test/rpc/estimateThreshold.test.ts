// eth_estimateGas answers the later steps of go-ethereum's search from the first run where the
// message cannot see its gas (src/rpc/handlers/estimate.ts, byThreshold). Here every answer it gives
// that way is the answer of running every step: for each contract call of the test chains (anvil's
// and go-ethereum's hive chains), as its sender at the block before it, and for contracts (given by
// state overrides) whose need is set by an SSTORE's EIP-2200 sentry, by memory growth, by a refund,
// by a revert or by running out of gas.
import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { hexToBytes } from '@ethereumjs/util';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import type { CallArgs } from '../../src/rpc/callParams.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { ethEstimateGas } from '../../src/rpc/handlers/estimate.ts';
import { blindToGas } from '../../src/replay/gasThreshold.ts';
import type { StateOverrides } from '../../src/replay/overrides.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
// the anvil chains, and go-ethereum's hive chains (execution-apis: forks up to Osaka)
const FIXTURES = [
  ...['cancun-devnet', 'prague-devnet'].map((name) => join(GOLDEN, `fixtures/${name}/fixture.json`)),
  join(GOLDEN, 'execution-apis/tests'),
  join(GOLDEN, 'execution-apis-pr855'),
];

const chains: ChainView[] = [];
beforeAll(async () => {
  for (const path of FIXTURES) chains.push(await loadChain(path));
}, 120_000);

type Params = Parameters<typeof ethEstimateGas>[0];

/** The answer, or the error's class, code and message, of each way. */
async function both(params: Params, ctx: RpcContext): Promise<[string, string]> {
  const answer = async (byThreshold: boolean): Promise<string> => {
    try {
      return await ethEstimateGas(params, ctx, { byThreshold });
    } catch (error) {
      const e = error as Error & { code?: number; data?: unknown };
      return `${e.constructor.name} ${e.code} ${e.message} ${String(e.data)}`;
    }
  };
  return [await answer(true), await answer(false)];
}

test('every contract call of the test chains, estimated at the block before it: the same answer both ways', async () => {
  let blind = 0;
  let calls = 0;
  for (const chain of chains) {
    const ctx = createContext(chain, { log: () => {} });
    for (let n = 1n; n <= chain.head.number; n++) {
      const block = chain.blockByNumber(n)!;
      for (const tx of block.block.transactions) {
        if (tx.to === undefined) continue;
        const state = await chain.stateAfter!(chain.blockByNumber(n - 1n)!);
        const code = await state.code(tx.to.bytes);
        if (code.length === 0) continue;
        calls++;
        if (blindToGas(code)) blind++;
        const args: CallArgs = { from: tx.getSenderAddress().bytes, to: tx.to.bytes, gas: undefined, gasPrice: undefined, value: tx.value, data: tx.data };
        const [fast, full] = await both([args, { number: n - 1n }, undefined, undefined], ctx);
        expect(fast).toBe(full);
      }
    }
  }
  // the chains hold both kinds of contract
  expect(calls).toBeGreaterThan(50);
  expect(blind).toBeGreaterThan(10);
  expect(calls - blind).toBeGreaterThan(5);
}, 300_000);

const CONTRACT = hexToBytes('0x00000000000000000000000000000000000c0de1');
const SENDER = hexToBytes('0x00000000000000000000000000000000000a11ce');
const slot = (n: number) => n.toString(16).padStart(64, '0');

/** Contracts whose least gas is set in different places (slot 1 holds 1 and slot 2 holds 5 by the override). */
const CODES: Record<string, string> = {
  // a loop of 30 iterations, then a fresh slot written: the write's 20,000 gas
  'SSTORE of a fresh slot at the end': '601e5b6001900380600257607760095500',
  // slot 1 read (warm), then a no-op SSTORE (slot 1 := 1): 100 gas, but the EIP-2200 sentry asks
  // for 2,301 left, a need the search's steps fall under
  'no-op SSTORE at the end (the sentry decides)': '600154506001600155',
  // the same, then a loop of 10: the sentry's need lies inside the run
  'no-op SSTORE, then a loop': '600154506001600155600a5b6001900380600b575700',
  // memory grown to 64 KB, then 32 bytes returned
  'memory growth': '600161ffff5360206000f3',
  // slot 2 cleared (a refund), then a word returned
  'a refund': '6000600255600160005260206000f3',
  // a fresh slot, then a no-op SSTORE
  'fresh slot, then a no-op SSTORE': '6007600355600160015500',
  // REVERT with data: the same error both ways
  'revert': '60aa60005260206000fd',
  // a loop that never ends: out of gas both ways
  'out of gas': '5b600056',
  // GAS: not blind, every step is run
  'GAS read': '5a60005500',
};

test('contracts given by state overrides: the same answer both ways, and the blind ones found blind', async () => {
  const chain = chains[0]!;
  const ctx = createContext(chain, { log: () => {} });
  for (const [name, hex] of Object.entries(CODES)) {
    const code = hexToBytes(`0x${hex}`);
    const overrides: StateOverrides = new Map([
      [Buffer.from(CONTRACT).toString('hex'), { code, state: new Map([[slot(1), hexToBytes(`0x${slot(1)}`)], [slot(2), hexToBytes(`0x${slot(5)}`)]]) }],
    ]);
    for (const gas of [undefined, 100_000n, 1_000_000n]) {
      const args: CallArgs = { from: SENDER, to: CONTRACT, gas, gasPrice: undefined, value: undefined, data: new Uint8Array([1, 2, 3]) };
      const [fast, full] = await both([args, { tag: 'latest' }, overrides, undefined], ctx);
      expect(`${name}: ${fast}`).toBe(`${name}: ${full}`);
    }
    expect(blindToGas(code)).toBe(name !== 'GAS read');
  }
}, 120_000);

test('blindToGas skips push data and refuses delegations', () => {
  expect(blindToGas(hexToBytes('0x605a00'))).toBe(true); // PUSH1 0x5a
  expect(blindToGas(hexToBytes(`0x7f${'f1'.repeat(32)}00`))).toBe(true); // PUSH32 of CALL bytes
  expect(blindToGas(hexToBytes('0x5a'))).toBe(false);
  expect(blindToGas(hexToBytes('0x6000f1'))).toBe(false);
  expect(blindToGas(hexToBytes(`0xef0100${'11'.repeat(20)}`))).toBe(false);
});
