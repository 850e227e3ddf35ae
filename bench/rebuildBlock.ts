// A copy of a fixture chain whose block N is built again, with ethereumjs buildBlock on the same
// parent, from an edited list of its transactions (some dropped, one's calldata changed and re-signed,
// new ones appended, signed with anvil's well-known dev keys); the blocks after N are left out (their
// parent changed). Two chains that share their transactions up to a point and then carry different
// ones, as `blocktrace diff` meets them (bench/chainDiff.ts and test/chainDiffPairing.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import { buildBlock, createVM, runBlock } from '@ethereumjs/vm';
import { mnemonicToAccount } from 'viem/accounts';
import type { GethGenesis } from '../src/fixture/types.ts';
import type { ChainView } from '../src/replay/chainView.ts';
import { makeCommon } from '../src/replay/common.ts';
import { writeGenesisAlloc } from '../src/replay/genesisState.ts';
import { lazyKzg } from '../src/replay/kzg.ts';

const MNEMONIC = 'test test test test test test test test test test test junk';

/** anvil's ten dev accounts' keys, by lower-case address. */
export function devKeys(): Map<string, Uint8Array> {
  const keys = new Map<string, Uint8Array>();
  for (let i = 0; i < 10; i++) {
    const account = mnemonicToAccount(MNEMONIC, { addressIndex: i });
    keys.set(account.address.toLowerCase(), account.getHdKey().privateKey!);
  }
  return keys;
}

/** `tx` with the last byte of its calldata one more, re-signed by its sender. */
export function withLastByteChanged(tx: TypedTransaction, keys: Map<string, Uint8Array>): TypedTransaction {
  const data = new Uint8Array(tx.data);
  data[data.length - 1] = (data[data.length - 1]! + 1) & 0xff;
  return createTx({ ...tx.toJSON(), data: bytesToHex(data) }, { common: tx.common }).sign(keys.get(tx.getSenderAddress().toString())!);
}

/**
 * Writes to `out` the fixture at `fixture` (a blocktrace/anvil fixture.json of RLP blocks) with block
 * `number` built again from `edit(its transactions)`, and without the blocks after it.
 */
export async function rebuildBlock(fixture: string, chain: ChainView, number: bigint, edit: (txs: readonly TypedTransaction[]) => TypedTransaction[], out: string): Promise<void> {
  const json = JSON.parse(readFileSync(fixture, 'utf8')) as { genesis: GethGenesis; blocks: unknown[] };
  const common = makeCommon(fixture, json.genesis, lazyKzg);
  const stateManager = new MerkleStateManager({ common });
  await writeGenesisAlloc(fixture, stateManager, json.genesis);
  // BLOCKHASH reads the chain's own blocks, as the loader's VM does (replay/chain.ts)
  const blockchain = {
    getBlock: async (n: number | bigint) => chain.blockByNumber(BigInt(n))!.block,
    shallowCopy() {
      return this;
    },
  };
  const vm = await createVM({ common, stateManager, blockchain: blockchain as never });
  for (let n = 1n; n < number; n++) {
    await runBlock(vm, { block: chain.blockByNumber(n)!.block, generate: true, skipBlockValidation: true, skipHeaderValidation: true, skipHardForkValidation: true, setHardfork: true });
  }
  const original = chain.blockByNumber(number)!.block;
  const h = original.header;
  const builder = await buildBlock(vm, {
    parentBlock: chain.blockByNumber(number - 1n)!.block,
    headerData: { number, timestamp: h.timestamp, coinbase: h.coinbase, gasLimit: h.gasLimit, mixHash: h.mixHash, extraData: h.extraData, parentBeaconBlockRoot: h.parentBeaconBlockRoot },
    withdrawals: [],
    blockOpts: { putBlockIntoBlockchain: false, setHardfork: true, skipConsensusFormatValidation: true },
  });
  for (const tx of edit(original.transactions)) await builder.addTransaction(tx);
  const { block } = await builder.build();
  json.blocks = [...json.blocks.slice(0, Number(number) - 1), { rawBlock: bytesToHex(block.serialize()) }];
  writeFileSync(out, JSON.stringify(json));
}
