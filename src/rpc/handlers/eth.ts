// The eth_/net_/web3_ methods ordinary clients (cast, viem, ethers) need to point at blocktrace.
// Unknown blocks and transactions answer `null`, as go-ethereum does.
import type { ChainBlock } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { formatBlock, formatHeader, formatReceipt, formatTransaction } from './ethJson.ts';
import { resolveBlock } from './resolve.ts';

export const ethChainId = (_: [], ctx: RpcContext): string => hexQuantity(ctx.chain.chainId);

export const ethBlockNumber = (_: [], ctx: RpcContext): string => hexQuantity(ctx.chain.head.number);

/** go-ethereum net_version: the network id as a decimal string (the chain id here). */
export const netVersion = (_: [], ctx: RpcContext): string => ctx.chain.chainId.toString();

export const web3ClientVersion = (_: [], ctx: RpcContext): string => ctx.clientVersion;

function blockJson(block: ChainBlock | undefined, fullTx: boolean, ctx: RpcContext): Record<string, unknown> | null {
  if (block === undefined) return null;
  return formatBlock(block, fullTx, fullTx ? ctx.chain.receipts(block) : []);
}

export const ethGetBlockByNumber = ([selector, fullTx]: [BlockSelector, boolean], ctx: RpcContext) =>
  blockJson(resolveBlock(ctx.chain, selector), fullTx, ctx);

export const ethGetBlockByHash = ([hash, fullTx]: [Uint8Array, boolean], ctx: RpcContext) =>
  blockJson(ctx.chain.blockByHash(hash), fullTx, ctx);

export function ethGetTransactionByHash([hash]: [Uint8Array], ctx: RpcContext): Record<string, unknown> | null {
  const location = ctx.chain.txByHash(hash);
  if (location === undefined) return null;
  return formatTransaction(location.block, location.index, ctx.chain.receipts(location.block)[location.index]);
}

export function ethGetTransactionReceipt([hash]: [Uint8Array], ctx: RpcContext): Record<string, unknown> | null {
  const location = ctx.chain.txByHash(hash);
  if (location === undefined) return null;
  const receipt = ctx.chain.receipts(location.block)[location.index];
  return receipt === undefined ? null : formatReceipt(location.block, location.index, receipt);
}

/** internal/ethapi/api.go GetHeaderByNumber / GetHeaderByHash: RPCMarshalHeader, or null. */
export const ethGetHeaderByNumber = ([selector]: [BlockSelector], ctx: RpcContext) => {
  const block = resolveBlock(ctx.chain, selector);
  return block === undefined ? null : formatHeader(block);
};

export const ethGetHeaderByHash = ([hash]: [Uint8Array], ctx: RpcContext) => {
  const block = ctx.chain.blockByHash(hash);
  return block === undefined ? null : formatHeader(block);
};

/**
 * internal/ethapi/api.go GetRawTransactionByHash and newRPCRawTransactionFromBlockIndex: the
 * transaction's MarshalBinary; an unknown one is a nil hexutil.Bytes, which encoding/json writes "0x".
 */
const rawTx = (block: ChainBlock | undefined, index: number | bigint): string => {
  const tx = block === undefined || BigInt(index) >= BigInt(block.block.transactions.length) ? undefined : block.block.transactions[Number(index)];
  return tx === undefined ? '0x' : hexBytes(tx.serialize());
};

export function ethGetRawTransactionByHash([hash]: [Uint8Array], ctx: RpcContext): string {
  const location = ctx.chain.txByHash(hash);
  return location === undefined ? '0x' : rawTx(location.block, location.index);
}

export const ethGetRawTransactionByBlockNumberAndIndex = ([selector, index]: [BlockSelector, bigint], ctx: RpcContext) =>
  rawTx(resolveBlock(ctx.chain, selector), index);

export const ethGetRawTransactionByBlockHashAndIndex = ([hash, index]: [Uint8Array, bigint], ctx: RpcContext) =>
  rawTx(ctx.chain.blockByHash(hash), index);
