// The by-block reads of go-ethereum's BlockChainAPI and TransactionAPI (internal/ethapi/api.go):
// receipts of a block, transaction and uncle counts, a transaction or an uncle by position.
// Unknown blocks and positions answer `null`, as go-ethereum does.
import { createBlockFromBytesArray } from '@ethereumjs/block';
import { hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import { type ChainBlock, type ChainView, chainBlockOf } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import type { BlockSelector } from '../schemas.ts';
import { formatBlock, formatReceipt, formatTransaction } from './ethJson.ts';
import { resolveBlock } from './resolve.ts';

/** eth/api_backend.go BlockByNumberOrHash: an unknown hash is no block; a non-canonical one cannot be here. */
export function resolveNumberOrHash(chain: ChainView, param: BlockNumberOrHash): ChainBlock | undefined {
  if ('neither' in param) throw new ServerError('invalid arguments; neither block nor hash specified');
  return 'hash' in param ? chain.blockByHash(param.hash) : resolveBlock(chain, param);
}

/**
 * The block a state read or a call names, an omitted one being the latest (go-ethereum v1.17 takes
 * *rpc.BlockNumberOrHash), with eth/api_backend.go HeaderByNumberOrHash's error texts.
 */
export function headerAt(chain: ChainView, param: BlockNumberOrHash | undefined): ChainBlock {
  const block = param === undefined ? chain.head : resolveNumberOrHash(chain, param);
  if (block === undefined) throw new ServerError(param !== undefined && 'hash' in param ? 'header for hash not found' : 'header not found');
  return block;
}

export function ethGetBlockReceipts([param]: [BlockNumberOrHash], ctx: RpcContext): Record<string, unknown>[] | null {
  const block = resolveNumberOrHash(ctx.chain, param);
  if (block === undefined) return null;
  const receipts = ctx.chain.receipts(block);
  if (receipts.length !== block.block.transactions.length) throw new ServerError('receipts length mismatch');
  return receipts.map((receipt, i) => formatReceipt(block, i, receipt));
}

const txCount = (block: ChainBlock | undefined): string | null => (block === undefined ? null : hexQuantity(block.block.transactions.length));
const uncleCount = (block: ChainBlock | undefined): string | null => (block === undefined ? null : hexQuantity(block.block.uncleHeaders.length));

export const ethGetBlockTransactionCountByNumber = ([selector]: [BlockSelector], ctx: RpcContext) => txCount(resolveBlock(ctx.chain, selector));
export const ethGetBlockTransactionCountByHash = ([hash]: [Uint8Array], ctx: RpcContext) => txCount(ctx.chain.blockByHash(hash));
export const ethGetUncleCountByBlockNumber = ([selector]: [BlockSelector], ctx: RpcContext) => uncleCount(resolveBlock(ctx.chain, selector));
export const ethGetUncleCountByBlockHash = ([hash]: [Uint8Array], ctx: RpcContext) => uncleCount(ctx.chain.blockByHash(hash));

/** newRPCTransactionFromBlockIndex: null past the last transaction. */
function txAt(block: ChainBlock | undefined, index: bigint, ctx: RpcContext): Record<string, unknown> | null {
  if (block === undefined || index >= BigInt(block.block.transactions.length)) return null;
  const i = Number(index);
  return formatTransaction(block, i, ctx.chain.receipts(block)[i]);
}

export const ethGetTransactionByBlockNumberAndIndex = ([selector, index]: [BlockSelector, bigint], ctx: RpcContext) =>
  txAt(resolveBlock(ctx.chain, selector), index, ctx);
export const ethGetTransactionByBlockHashAndIndex = ([hash, index]: [Uint8Array, bigint], ctx: RpcContext) =>
  txAt(ctx.chain.blockByHash(hash), index, ctx);

/** GetUncleBy…AndIndex: RPCMarshalBlock(NewBlockWithHeader(uncle), inclTx=false): no `transactions` key. */
function uncleAt(block: ChainBlock | undefined, index: bigint): Record<string, unknown> | null {
  if (block === undefined || index >= BigInt(block.block.uncleHeaders.length)) return null;
  const header = block.block.uncleHeaders[Number(index)]!;
  const uncle = createBlockFromBytesArray([header.raw(), [], []], { common: header.common });
  const { transactions: _, ...fields } = formatBlock(chainBlockOf(uncle, header.hash()), false, []);
  return fields;
}

export const ethGetUncleByBlockNumberAndIndex = ([selector, index]: [BlockSelector, bigint], ctx: RpcContext) =>
  uncleAt(resolveBlock(ctx.chain, selector), index);
export const ethGetUncleByBlockHashAndIndex = ([hash, index]: [Uint8Array, bigint], ctx: RpcContext) =>
  uncleAt(ctx.chain.blockByHash(hash), index);
