// A generated load fixture for the start-up benchmark (issue 18): `blocks` Cancun blocks of
// `perBlock` signed EIP-1559 transactions from 100 senders, half ether transfers to fresh accounts,
// half ERC-20 transfers (the shipped cancun-devnet Token's runtime code, balances set in the
// genesis) to fresh holders, so the state trie and the token's storage trie grow as on a busy
// devnet. Each block is built once with ethereumjs buildBlock (which fills the header's roots,
// bloom and gas used) and written as RLP into a blocktrace JSON fixture, {"genesis", "blocks"}, the
// shape of a chain.rlp: no recorded senders, so a load recovers every signature.
//
// A benchmark input, not an expectation: nothing here is compared with a reference client's bytes.
//
//   bun bench/generate.ts OUT.json [TXS] [PER_BLOCK]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type Block, createBlock } from '@ethereumjs/block';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { bigIntToBytes, bytesToHex, concatBytes, hexToBytes, privateToAddress, setLengthLeft } from '@ethereumjs/util';
import { buildBlock, createVM } from '@ethereumjs/vm';
import { keccak256 } from 'viem';
import type { GethGenesis } from '../src/fixture/types.ts';
import { makeCommon } from '../src/replay/common.ts';
import { writeGenesisAlloc } from '../src/replay/genesisState.ts';
import { lazyKzg } from '../src/replay/kzg.ts';

const ROOT = resolve(import.meta.dir, '..');
const TOKEN = '0x' + '70'.repeat(20);
const SENDERS = 100;
/** Token storage: totalSupply at slot 2, balanceOf at slot 3 (read off the shipped Token's code). */
const BALANCES_SLOT = 3n;

const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);
const hex32 = (n: bigint): string => bytesToHex(word(n));

function key(i: number): Uint8Array {
  return keccak256(new TextEncoder().encode(`blocktrace bench sender ${i}`), 'bytes');
}

/** The sender of the fixture's transaction `n` (counted from the first block). */
export function generatedSender(n: number): string {
  return bytesToHex(privateToAddress(key(n % SENDERS)));
}

/** A fresh account for transaction `n`: never a sender, never the token. */
function recipient(n: number): string {
  return bytesToHex(keccak256(new TextEncoder().encode(`blocktrace bench recipient ${n}`), 'bytes').subarray(12));
}

function genesisOf(senders: readonly string[]): GethGenesis {
  const tokenCode = (JSON.parse(readFileSync(join(ROOT, 'golden/fixtures/cancun-devnet/out/Token.sol/Token.json'), 'utf8')) as { deployedBytecode: { object: string } }).deployedBytecode.object;
  const supply = 10n ** 30n;
  const storage: Record<string, string> = { [hex32(2n)]: hex32(supply * BigInt(senders.length)) };
  for (const s of senders) storage[keccak256(concatBytes(setLengthLeft(hexToBytes(s as `0x${string}`), 32), word(BALANCES_SLOT)))] = hex32(supply);
  const alloc: Record<string, unknown> = { [TOKEN]: { balance: '0x0', code: tokenCode, storage } };
  for (const s of senders) alloc[s] = { balance: '0x' + (10n ** 24n).toString(16) };
  return {
    config: {
      chainId: 7100042, homesteadBlock: 0, eip150Block: 0, eip155Block: 0, eip158Block: 0, byzantiumBlock: 0,
      constantinopleBlock: 0, petersburgBlock: 0, istanbulBlock: 0, berlinBlock: 0, londonBlock: 0,
      mergeNetsplitBlock: 0, shanghaiTime: 0, cancunTime: 0, terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true,
      blobSchedule: { cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 } },
    },
    alloc,
    gasLimit: '0x1c9c380',
    difficulty: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    baseFeePerGas: '0x7',
    excessBlobGas: '0x0',
    blobGasUsed: '0x0',
  } as unknown as GethGenesis;
}

/** transfer(address,uint256) calldata. */
function transferData(to: string, amount: bigint): Uint8Array {
  return concatBytes(hexToBytes('0xa9059cbb'), setLengthLeft(hexToBytes(to as `0x${string}`), 32), word(amount));
}

export async function generateLoadFixture(txCount: number, perBlock: number): Promise<{ genesis: GethGenesis; blocks: string[] }> {
  const keys = Array.from({ length: SENDERS }, (_, i) => key(i));
  const senders = keys.map((k) => bytesToHex(privateToAddress(k)));
  const genesis = genesisOf(senders);
  const common = makeCommon('generated', genesis, lazyKzg);
  const stateManager = new MerkleStateManager({ common });
  const root = await writeGenesisAlloc('generated', stateManager, genesis);
  const vm = await createVM({ common, stateManager });
  // the genesis header the loader builds (replay/chain.ts buildGenesis)
  let parent: Block = createBlock(
    {
      header: {
        number: 0n, stateRoot: root, gasLimit: 30_000_000n, timestamp: 0n, extraData: '0x', difficulty: 0n,
        mixHash: ('0x' + '00'.repeat(32)) as `0x${string}`, nonce: '0x0000000000000000', coinbase: ('0x' + '00'.repeat(20)) as `0x${string}`,
        baseFeePerGas: 7n, excessBlobGas: 0n, blobGasUsed: 0n,
      },
      withdrawals: [],
    },
    { common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  const nonces = new Array<bigint>(SENDERS).fill(0n);
  const blocks: string[] = [];
  for (let n = 0, number = 1n; n < txCount; number++) {
    const timestamp = number * 12n;
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: { number, timestamp, coinbase: ('0x' + 'c0'.repeat(20)) as `0x${string}`, parentBeaconBlockRoot: word(number) },
      withdrawals: [],
      blockOpts: { putBlockIntoBlockchain: false, setHardfork: true, skipConsensusFormatValidation: true },
    });
    for (let j = 0; j < perBlock && n < txCount; j++, n++) {
      const s = n % SENDERS;
      const token = n % 2 === 1;
      const tx = createFeeMarket1559Tx(
        {
          chainId: 7100042n,
          nonce: nonces[s]!++,
          maxFeePerGas: 100n * 10n ** 9n,
          maxPriorityFeePerGas: 10n ** 9n,
          gasLimit: token ? 80_000n : 21_000n,
          to: (token ? TOKEN : recipient(n)) as `0x${string}`,
          value: token ? 0n : 10n ** 9n,
          data: token ? transferData(recipient(n), 1n) : new Uint8Array(),
        },
        { common: vm.common },
      ).sign(keys[s]!);
      await builder.addTransaction(tx);
    }
    const { block } = await builder.build();
    blocks.push(bytesToHex(block.serialize()));
    parent = block;
  }
  return { genesis, blocks };
}

/** The fixture at `path`, generated once (the file is reused while it exists). */
export async function loadFixtureFile(path: string, txCount: number, perBlock: number): Promise<string> {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(await generateLoadFixture(txCount, perBlock)));
  }
  return path;
}

if (import.meta.main) {
  const [out, txs = '10000', perBlock = '200'] = process.argv.slice(2);
  if (out === undefined) throw new Error('usage: bun bench/generate.ts OUT.json [TXS] [PER_BLOCK]');
  const started = performance.now();
  writeFileSync(out, JSON.stringify(await generateLoadFixture(Number(txs), Number(perBlock))));
  process.stderr.write(`${out}: ${txs} transactions in ${Math.ceil(Number(txs) / Number(perBlock))} blocks, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}
