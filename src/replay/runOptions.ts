// How a block is run for replay, and the rewards a proof-of-work block pays (facts for Parity's
// reward traces); shared by the fixture chain, the upstream chain and capture.
import { Block } from '@ethereumjs/block';
import { ConsensusType } from '@ethereumjs/common';
import type { BlockRecording, BlockReward, TxRecording } from '../trace/types.ts';

/** runBlock's options for a replay: from `root` when given, else from the state as it stands. */
export function runOptions(block: Block, root: Uint8Array | undefined) {
  return {
    block,
    root,
    generate: true,
    skipBlockValidation: true,
    skipHeaderValidation: true,
    skipHardForkValidation: true,
    setHardfork: true,
  };
}

/**
 * `block` cut after its transaction `last`, for a run that watches no later one: go-ethereum's
 * debug_traceTransaction runs the transactions before the traced one and stops after it
 * (eth/tracers/api.go traceTx after StateAtTransaction). Same header, so the same hash and context;
 * runOptions' `generate` does not check the header's totals against what ran.
 */
export function cutAfter(block: Block, last: number): Block {
  if (last >= block.transactions.length - 1) return block;
  return new Block(block.header, block.transactions.slice(0, last + 1), block.uncleHeaders, block.withdrawals, { common: block.common });
}

/** Block and uncle rewards of a proof-of-work block (paid by ethereumjs; recorded for Parity traces); none when it pays none. */
export function rewardsOf(block: Block): BlockReward[] {
  const common = block.common;
  const reward = common.consensusType() === ConsensusType.ProofOfWork ? common.param('minerReward') : 0n;
  // a state test's block pays none (replay/common.ts withoutBlockDuties): no reward trace
  if (reward === 0n) return [];
  const out: BlockReward[] = [{ author: block.header.coinbase.bytes, kind: 'block', value: reward + (reward / 32n) * BigInt(block.uncleHeaders.length) }];
  for (const uncle of block.uncleHeaders) {
    out.push({ author: uncle.coinbase.bytes, kind: 'uncle', value: ((uncle.number + 8n - block.header.number) * reward) / 8n });
  }
  return out;
}

/** The recording of `block` made of its transactions' recordings (number, hash, rewards from the block). */
export function blockRecording(block: Block, txs: TxRecording[]): BlockRecording {
  return { number: block.header.number, hash: block.hash(), txs, rewards: rewardsOf(block) };
}
