// A block as the node sends it (eth_getBlockByNumber(…, true)), decoded with each transaction taken
// as the node says it was sent: the node's `from` and `hash` (replay/sentAs.ts), so no sender the
// node names is recovered. A signature ethereumjs refuses to hold (Hardhat's impersonated v = 0x1c
// in a typed transaction; an s past half the curve order) is left out: the transaction is decoded
// as ethereumjs holds an unsigned one, which runs as well (the node's sender sends it) and encodes
// the signature as empty fields. Blocks whose signatures all decode take the one usual path.
import { type Block, createBlockFromRPC, createBlockHeaderFromRPC } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { createTx, normalizeTxParams } from '@ethereumjs/tx';
import { hexToBytes, isHexString } from '@ethereumjs/util';
import { sealBlock } from '../replay/blocks.ts';
import { takeAsSent } from '../replay/sentAs.ts';

type RpcTx = Record<string, unknown>;

export interface BlockOptions {
  readonly common: Common;
  readonly setHardfork: true;
  readonly skipConsensusFormatValidation: true;
}

/** Decodes `json` (throws ethereumjs's error for a block it cannot hold); the block is sealed. */
export function blockFromNode(json: Record<string, unknown>, uncles: readonly unknown[], options: BlockOptions): Block {
  // unfrozen: each transaction is given its sender and hash, then the block is sealed
  const opts = { ...options, freeze: false as const };
  let block: Block;
  try {
    block = createBlockFromRPC(json as never, uncles as never, opts);
  } catch (err) {
    const unsigned = withoutRefusedSignatures(json, opts);
    if (unsigned === undefined) throw err;
    block = createBlockFromRPC(unsigned as never, uncles as never, opts);
  }
  const txs = Array.isArray(json['transactions']) ? (json['transactions'] as unknown[]) : [];
  txs.forEach((t, i) => {
    const { from, hash } = (typeof t === 'object' && t !== null ? t : {}) as RpcTx;
    if (typeof from === 'string' && typeof hash === 'string' && isHexString(from) && isHexString(hash)) takeAsSent(block.transactions[i]!, { from: hexToBytes(from), hash: hexToBytes(hash) });
  });
  sealBlock(block);
  return block;
}

/**
 * `json` with the signature fields taken out of each transaction that ethereumjs refuses with them
 * and takes without them; undefined when there is none (the block's error is another).
 */
function withoutRefusedSignatures(json: Record<string, unknown>, opts: BlockOptions & { freeze: false }): Record<string, unknown> | undefined {
  const txs = json['transactions'];
  if (!Array.isArray(txs)) return undefined;
  const common = createBlockHeaderFromRPC(json as never, opts).common;
  const decodes = (t: RpcTx): boolean => {
    try {
      createTx(normalizeTxParams(t) as never, { common });
      return true;
    } catch {
      return false;
    }
  };
  let changed = false;
  const transactions = txs.map((t: unknown) => {
    if (typeof t !== 'object' || t === null || decodes(t as RpcTx)) return t;
    const { v: _v, r: _r, s: _s, yParity: _yParity, ...unsigned } = t as RpcTx;
    if (!decodes(unsigned)) return t; // not the signature: the block's own error tells
    changed = true;
    return unsigned;
  });
  return changed ? { ...json, transactions } : undefined;
}
