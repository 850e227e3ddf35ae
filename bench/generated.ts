// The generated 10,000-transaction fixture (bench/generate.ts) on anvil: anvil started from the same
// genesis, then fed block by block as bench/anvil.ts feeds the corpus chain (evm_setNextBlockTimestamp,
// every raw transaction with eth_sendRawTransaction, evm_mine). Its throughput is the figure beside
// blocktrace's first start. anvil's state roots are its own (docs/fixtures.md), so its
// block hashes are not compared; its receipts must all succeed, as in the fixture.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { anvilBinary } from './anvil.ts';
import { freePort, spawnChild } from './procs.ts';
import { call, waitReady } from './rpc.ts';

interface GeneratedFixture {
  readonly genesis: { readonly config: { readonly chainId: number } };
  readonly blocks: readonly string[];
}

/** Each block's timestamp and raw transactions, read off its RLP (typed ones are byte strings). */
function blocksOf(fixture: GeneratedFixture): { timestamp: number; raw: string[] }[] {
  return fixture.blocks.map((hex) => {
    const [header, txs] = RLP.decode(hexToBytes(hex as `0x${string}`)) as unknown as [Uint8Array[], (Uint8Array | Uint8Array[])[]];
    const timestamp = Number(BigInt(bytesToHex(header[11]!) === '0x' ? 0 : bytesToHex(header[11]!)));
    return { timestamp, raw: txs.map((tx) => bytesToHex(tx instanceof Uint8Array ? tx : RLP.encode(tx))) };
  });
}

/** Mines the generated chain into a fresh anvil; `then` may ask it more before it is stopped. */
export async function anvilOnGenerated<T = undefined>(path: string, cwd: string, then?: (url: string) => Promise<T>): Promise<{ txs: number; totalMs: number; then: T | undefined }> {
  const fixture = JSON.parse(readFileSync(path, 'utf8')) as GeneratedFixture;
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-anvil-'));
  const genesis = join(dir, 'genesis.json');
  writeFileSync(genesis, JSON.stringify(fixture.genesis));
  const port = await freePort();
  const args = ['--init', genesis, '--chain-id', String(fixture.genesis.config.chainId), '--hardfork', 'cancun', '--no-mining', '--order', 'fifo', '--gas-limit', '30000000', '--host', '127.0.0.1', '--port', String(port)];
  const child = spawnChild('anvil-generated', [anvilBinary(), ...args], cwd);
  const url = `http://127.0.0.1:${port}/`;
  try {
    let exited = false;
    void child.exited.then(() => (exited = true));
    await waitReady(url, 30_000, () => exited);
    const blocks = blocksOf(fixture);
    const start = performance.now();
    let txs = 0;
    for (const block of blocks) {
      await call(url, 'evm_setNextBlockTimestamp', [block.timestamp]);
      for (const raw of block.raw) await call(url, 'eth_sendRawTransaction', [raw]);
      await call(url, 'evm_mine');
      txs += block.raw.length;
    }
    const totalMs = performance.now() - start;
    const head = await call<{ transactions: string[] }>(url, 'eth_getBlockByNumber', ['latest', false]);
    const last = blocks[blocks.length - 1]!;
    if (head.transactions.length !== last.raw.length) throw new Error(`anvil mined ${head.transactions.length} transactions in its last block, the fixture has ${last.raw.length}`);
    return { txs, totalMs, then: then === undefined ? undefined : await then(url) };
  } finally {
    await child.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
