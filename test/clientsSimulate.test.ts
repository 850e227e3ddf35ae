// viem's simulateBlocks and simulateCalls (eth_simulateV1) against `blocktrace serve` on the shipped
// cancun-devnet fixture over real HTTP: each of the chain's contract calls, simulated at its
// parent block, returns what eth_call returns there; a transfer moves the balance it should, and
// a reverting call comes back as a failed call, not an error.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createPublicClient, http, parseEther, type Hex, type PublicClient } from 'viem';
import { startBlocktrace, type Server } from '../bench/blocktrace.ts';

const ROOT = join(import.meta.dir, '..');
const FIXTURE = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
let bt: Server;
let client: PublicClient;

beforeAll(async () => {
  bt = await startBlocktrace([process.execPath, 'src/cli.ts'], FIXTURE, ROOT);
  client = createPublicClient({ transport: http(bt.url) });
}, 120_000);

afterAll(async () => {
  await bt?.child.stop();
});

interface Tx {
  readonly from: Hex;
  readonly to: Hex | null;
  readonly input: Hex;
  readonly value: Hex;
  readonly blockNumber: Hex;
}

test('simulateBlocks: every contract call of block 4 returns what eth_call returns at block 3', async () => {
  const block = await client.request({ method: 'eth_getBlockByNumber', params: ['0x4', true] }) as unknown as { transactions: Tx[] };
  const calls = block.transactions.filter((tx) => tx.to !== null && tx.input !== '0x').slice(0, 8);
  expect(calls.length).toBeGreaterThan(3);
  for (const tx of calls) {
    const request = { account: tx.from, to: tx.to!, data: tx.input, value: BigInt(tx.value) };
    const [result] = await client.simulateBlocks({ blockNumber: 3n, blocks: [{ calls: [request] }] });
    const simulated = result!.calls[0]!;
    let called: Hex | undefined;
    let reverted = false;
    try {
      called = (await client.call({ ...request, blockNumber: 3n })).data ?? '0x';
    } catch {
      reverted = true;
    }
    if (reverted) expect(simulated.status).toBe('failure');
    else {
      expect(simulated.status).toBe('success');
      expect(simulated.data).toBe(called!);
    }
    expect(result!.number).toBe(4n);
  }
});

test('simulateCalls: a transfer from an overridden balance, then the balance it leaves', async () => {
  const from = '0xc000000000000000000000000000000000000001';
  const to = '0xc000000000000000000000000000000000000002';
  const { results } = await client.simulateCalls({
    account: from,
    stateOverrides: [{ address: from, balance: parseEther('2') }],
    calls: [{ to, value: parseEther('1') }],
    traceTransfers: true,
  });
  expect(results[0]!.status).toBe('success');
  expect(results[0]!.logs?.length).toBe(1); // the ERC-7528 transfer log
  // nothing of it stays on the chain
  expect(await client.getBalance({ address: to })).toBe(0n);
});
