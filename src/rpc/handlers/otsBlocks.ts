// ots_getBlockDetails, ots_getBlockDetailsByHash and ots_getBlockTransactions: anvil 1.7.1's
// answers (crates/anvil/src/eth/otterscan/api.rs build_ots_block_details, build_ots_block_tx), with
// Otterscan's spec and Erigon (rpc/jsonrpc/otterscan_api.go, otterscan_block_details.go) where
// anvil departs from them: the blocks' logsBloom and the receipts' logs and logsBloom are null,
// transactionCount counts the block, not the page, pages are counted from the block's last
// transaction, and a block past the head is null (docs/otterscan.md).
import { hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import { rewardsOf } from '../../replay/runOptions.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { anvilHeader, anvilOtsReceipt, anvilTransaction } from './anvilJson.ts';
import { formatWithdrawals, uncleHashes } from './ethJson.ts';
import { fetchBlockByHash, isGenesis, resolveBlock } from './resolve.ts';

type Json = Record<string, unknown>;

/**
 * The header with its logsBloom null (erigon otterscan_api.go delegateGetBlockByNumber), then the
 * uncles, the `transactions` given (a page of them), the withdrawals and the transaction count.
 */
function slimBlock(ctx: RpcContext, block: ChainBlock, transactions?: Json[]): Json {
  const slim = anvilHeader(ctx.chain, block);
  slim['logsBloom'] = null;
  slim['uncles'] = uncleHashes(block);
  if (transactions !== undefined) slim['transactions'] = transactions;
  const withdrawals = formatWithdrawals(block);
  if (withdrawals !== undefined) slim['withdrawals'] = withdrawals;
  slim['transactionCount'] = block.block.transactions.length;
  return slim;
}

/**
 * Erigon's issuance (otterscan_api.go delegateIssuance): the block and uncle rewards paid at the
 * block's end; none after the merge, where anvil's zeros agree.
 */
function issuance(ctx: RpcContext, block: ChainBlock): Json {
  const rewards = isGenesis(ctx.chain, block) ? [] : rewardsOf(block.block);
  const sum = (kind: 'block' | 'uncle'): bigint => rewards.filter((r) => r.kind === kind).reduce((n, r) => n + r.value, 0n);
  const [blockReward, uncleReward] = [sum('block'), sum('uncle')];
  return { blockReward: hexQuantity(blockReward), uncleReward: hexQuantity(uncleReward), issuance: hexQuantity(blockReward + uncleReward) };
}

function blockDetails(ctx: RpcContext, block: ChainBlock): Json {
  const slim = slimBlock(ctx, block);
  const fees = ctx.chain.receipts(block).reduce((n, r) => n + r.gasUsed * r.effectiveGasPrice, 0n);
  return { block: slim, issuance: issuance(ctx, block), totalFees: hexQuantity(fees) };
}

/** A block past the head is null (Erigon GetBlockDetails: a number with no canonical hash finds no block). */
export function otsGetBlockDetails([selector]: [BlockSelector], ctx: RpcContext): Json | null {
  const block = resolveBlock(ctx.chain, selector);
  return block === undefined ? null : blockDetails(ctx, block);
}

/**
 * An unknown hash is Erigon's error (otterscan_block_details.go GetBlockDetailsByHash: `couldn't
 * find block number for hash %v` of the hash's bytes, which Go writes as a list of decimal bytes).
 */
export async function otsGetBlockDetailsByHash([hash]: [Uint8Array], ctx: RpcContext): Promise<Json> {
  const block = await fetchBlockByHash(ctx.chain, hash);
  if (block === undefined) throw new ServerError(`couldn't find block number for hash [${[...hash].join(' ')}]`);
  return blockDetails(ctx, block);
}

/** A transaction's input as Otterscan's list shows it: its selector, the first 4 bytes (alloy otterscan.rs). */
function withSelector(tx: Json): Json {
  tx['input'] = (tx['input'] as string).slice(0, 10);
  return tx;
}

/**
 * Page `page` of `pageSize` transactions, counted from the block's last (Erigon
 * otterscan_api.go GetBlockTransactions: `pageEnd = len - page * pageSize`, `pageStart = pageEnd -
 * pageSize`, both clamped at 0), in block order: Otterscan reverses each page, so page 0 shows the
 * block's last transaction first. anvil counts from the first (`skip(page * page_size)`). A block
 * past the head is null, Erigon's answer, which Otterscan shows as "Block not found".
 */
export function otsGetBlockTransactions([number, page, pageSize]: [bigint, bigint, bigint], ctx: RpcContext): Json | null {
  const block = ctx.chain.blockByNumber(number);
  if (block === undefined) return null;
  const count = BigInt(block.block.transactions.length);
  const clamp = (n: bigint): number => Number(n < 0n ? 0n : n);
  const end = clamp(count - page * pageSize);
  const start = clamp(count - page * pageSize - pageSize);
  const receipts = ctx.chain.receipts(block);
  const indexes = Array.from({ length: end - start }, (_, i) => start + i);
  const fullblock = slimBlock(ctx, block, indexes.map((i) => withSelector(anvilTransaction(block, i, receipts[i]))));
  return { fullblock, receipts: indexes.map((i) => anvilOtsReceipt(block, i, receipts[i]!, false)) };
}
