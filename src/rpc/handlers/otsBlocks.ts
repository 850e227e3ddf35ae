// ots_getBlockDetails, ots_getBlockDetailsByHash and ots_getBlockTransactions: anvil 1.7.1's
// answers (crates/anvil/src/eth/otterscan/api.rs build_ots_block_details, build_ots_block_tx), with
// Otterscan's spec and Erigon (rpc/jsonrpc/otterscan_api.go, otterscan_block_details.go) where
// anvil departs from them: the blocks' logsBloom and the receipts' logs and logsBloom are null, and
// transactionCount counts the block, not the page (docs/otterscan.md).
import { hexQuantity } from '../../encoding/hex.ts';
import { ResourceNotFoundError } from '../../errors/rpcErrors.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import { rewardsOf } from '../../replay/runOptions.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { anvilHeader, anvilOtsReceipt, anvilTransaction } from './anvilJson.ts';
import { formatWithdrawals, uncleHashes } from './ethJson.ts';
import { fetchBlockByHash, isGenesis, resolveBlock } from './resolve.ts';

type Json = Record<string, unknown>;

/** anvil's BlockNotFound. */
const notFound = (): ResourceNotFoundError => new ResourceNotFoundError('Resource not found');

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

export function otsGetBlockDetails([selector]: [BlockSelector], ctx: RpcContext): Json {
  const block = resolveBlock(ctx.chain, selector);
  if (block === undefined) throw notFound();
  return blockDetails(ctx, block);
}

export async function otsGetBlockDetailsByHash([hash]: [Uint8Array], ctx: RpcContext): Promise<Json> {
  const block = await fetchBlockByHash(ctx.chain, hash);
  if (block === undefined) throw notFound();
  return blockDetails(ctx, block);
}

/** A transaction's input as Otterscan's list shows it: its selector, the first 4 bytes (alloy otterscan.rs). */
function withSelector(tx: Json): Json {
  tx['input'] = (tx['input'] as string).slice(0, 10);
  return tx;
}

const U64 = (1n << 64n) - 1n;

/**
 * Page `page` of `pageSize` transactions, counted from the block's first (anvil's paging:
 * `skip(page * page_size).take(page_size)`, the product wrapping in 64 bits as anvil's release
 * build computes it).
 */
export function otsGetBlockTransactions([number, page, pageSize]: [bigint, bigint, bigint], ctx: RpcContext): Json {
  const block = ctx.chain.blockByNumber(number);
  if (block === undefined) throw notFound();
  const count = block.block.transactions.length;
  const start = (page * pageSize) & U64;
  const end = start + pageSize;
  const first = start >= BigInt(count) ? count : Number(start);
  const last = end >= BigInt(count) ? count : Number(end);
  const receipts = ctx.chain.receipts(block);
  const indexes = Array.from({ length: last - first }, (_, i) => first + i);
  const fullblock = slimBlock(ctx, block, indexes.map((i) => withSelector(anvilTransaction(block, i, receipts[i]))));
  return { fullblock, receipts: indexes.map((i) => anvilOtsReceipt(block, i, receipts[i]!, false)) };
}
