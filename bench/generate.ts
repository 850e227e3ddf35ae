// A generated load fixture for the start-up benchmark (issue 18) and long chains (issue 37):
// Cancun blocks of `perBlock` signed EIP-1559 transactions from 100 senders, half ether transfers to
// fresh accounts, half ERC-20 transfers (the shipped cancun-devnet Token's runtime code, balances
// set in the genesis) to fresh holders, so the state trie and the token's storage trie grow as on a
// busy devnet (generate/spec.ts). The blocks are computed without a VM (generate/blocks.ts: the
// state kept here, tries in memory that hash only what a block wrote, transactions signed in worker
// threads) and streamed as RLP into a blocktrace JSON fixture, {"genesis", "blocks"}, the shape of a
// chain.rlp: no recorded senders, so a load recovers every signature. The bytes are those of the
// ethereumjs buildBlock generator this replaced; time and memory grow linearly with the chain
// (docs/performance.md, "Generating long chains").
//
// A benchmark input, not an expectation: nothing here is compared with a reference client's bytes.
//
//   bun bench/generate.ts OUT.json [TXS] [PER_BLOCK]
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { privateToAddress } from '@ethereumjs/util';
import type { GethGenesis } from '../src/fixture/types.ts';
import { loadKeccak } from '../src/replay/keccak.ts';
import { generatedBlocks } from './generate/blocks.ts';
import { senderKeys } from './generate/sign.ts';
import { genesisOf, SENDERS, senderKey, toHex } from './generate/spec.ts';

/** The sender of the fixture's transaction `n` (counted from the first block). */
export function generatedSender(n: number): string {
  return toHex(privateToAddress(senderKey(n % SENDERS)));
}

/** Signing threads: one per CPU, the main thread's state work fits beside them. */
const THREADS = Math.max(1, Math.min(availableParallelism(), 4));

async function start(txCount: number, perBlock: number): Promise<{ genesis: GethGenesis; blocks: AsyncGenerator<Uint8Array> }> {
  if (!Number.isSafeInteger(txCount) || txCount < 1 || !Number.isSafeInteger(perBlock) || perBlock < 1) throw new Error(`transactions and transactions a block must be positive integers (${txCount}, ${perBlock})`);
  await loadKeccak();
  const senders = senderKeys().map((k) => toHex(privateToAddress(k)));
  const genesis = genesisOf(senders);
  return { genesis, blocks: generatedBlocks(genesis, senders, txCount, perBlock, THREADS) };
}

/** The fixture in memory: for tests and small chains (a long one belongs in a file, writeLoadFixture). */
export async function generateLoadFixture(txCount: number, perBlock: number): Promise<{ genesis: GethGenesis; blocks: string[] }> {
  const { genesis, blocks } = await start(txCount, perBlock);
  const hex: string[] = [];
  for await (const block of blocks) hex.push(toHex(block));
  return { genesis, blocks: hex };
}

/** Where writeLoadFixture writes `path` before renaming it. */
export function temporaryPath(path: string): string {
  return `${path}.${process.pid}.tmp`;
}

/**
 * Writes the fixture to `path` as it is generated, through a temporary file renamed at the end (an
 * interrupted run leaves no fixture). The bytes are JSON.stringify({genesis, blocks}).
 */
export async function writeLoadFixture(path: string, txCount: number, perBlock: number): Promise<{ blocks: number; bytes: number }> {
  const { genesis, blocks } = await start(txCount, perBlock);
  const temp = temporaryPath(path);
  const fd = openSync(temp, 'w');
  let bytes = 0;
  let count = 0;
  let pending: string[] = [];
  let pendingLength = 0;
  const write = (text: string, force = false) => {
    pending.push(text);
    pendingLength += text.length;
    if (force || pendingLength > 1 << 22) {
      bytes += writeSync(fd, pending.join(''));
      pending = [];
      pendingLength = 0;
    }
  };
  try {
    write(`{"genesis":${JSON.stringify(genesis)},"blocks":[`);
    for await (const block of blocks) write(`${count++ === 0 ? '' : ','}"${toHex(block)}"`);
    write(']}', true);
    closeSync(fd);
    renameSync(temp, path);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  return { blocks: count, bytes };
}

/** The fixture at `path`, generated once (the file is reused while it exists). */
export async function loadFixtureFile(path: string, txCount: number, perBlock: number): Promise<string> {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    await writeLoadFixture(path, txCount, perBlock);
  }
  return path;
}

if (import.meta.main) {
  const [out, txs = '10000', perBlock = '200'] = process.argv.slice(2);
  if (out === undefined) {
    process.stderr.write('usage: bun bench/generate.ts OUT.json [TXS] [PER_BLOCK]\n');
    process.exit(2);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      rmSync(temporaryPath(out), { force: true });
      process.exit(130);
    });
  }
  const started = performance.now();
  const written = await writeLoadFixture(out, Number(txs), Number(perBlock)).catch((error: unknown) => {
    process.stderr.write(`bench/generate.ts: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
  process.stderr.write(`${out}: ${txs} transactions in ${written.blocks} blocks, ${(written.bytes / 1e6).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
