// debug_getRaw*: the consensus encodings go-ethereum returns (internal/ethapi/api.go DebugAPI):
// header and block RLP, each receipt's MarshalBinary (core/types/receipt.go), a transaction's
// MarshalBinary (typed: type byte + RLP payload).
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, concatBytes } from '@ethereumjs/util';
import { hexBytes } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, ReceiptInfo } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { resolveNumberOrHash } from './blockReads.ts';

/** `fmt.Errorf("block #%d not found", hash)`: Go prints a [32]byte with %d as its decimal bytes. */
const goBytesD = (bytes: Uint8Array): string => `[${Array.from(bytes).join(' ')}]`;

function blockOf(param: BlockNumberOrHash, ctx: RpcContext, what: 'block' | 'header'): ChainBlock | undefined {
  const block = resolveNumberOrHash(ctx.chain, param);
  if (block === undefined && 'hash' in param) throw new ServerError(`${what} #${goBytesD(param.hash)} not found`);
  return block;
}

export function debugGetRawHeader([param]: [BlockNumberOrHash], ctx: RpcContext): string | null {
  const block = blockOf(param, ctx, 'header');
  return block === undefined ? null : hexBytes(block.block.header.serialize());
}

export function debugGetRawBlock([param]: [BlockNumberOrHash], ctx: RpcContext): string | null {
  const block = blockOf(param, ctx, 'block');
  return block === undefined ? null : hexBytes(block.block.serialize());
}

/** types.Receipt MarshalBinary: [status or post-state root, cumulative gas, bloom, logs], typed ones prefixed. */
function encodeReceipt(receipt: ReceiptInfo, type: number): Uint8Array {
  const status = receipt.postState !== undefined && receipt.postState.length > 0 ? receipt.postState : receipt.status === 1 ? Uint8Array.of(1) : new Uint8Array();
  const payload = RLP.encode([
    status,
    bigIntToUnpaddedBytes(receipt.cumulativeGasUsed),
    receipt.logsBloom,
    receipt.logs.map((log) => [log.address, log.topics, log.data]),
  ]);
  return type === 0 ? payload : concatBytes(Uint8Array.of(type), payload);
}

export function debugGetRawReceipts([param]: [BlockNumberOrHash], ctx: RpcContext): string[] | null {
  const block = resolveNumberOrHash(ctx.chain, param);
  if (block === undefined) return 'hash' in param ? [] : null;
  return ctx.chain.receipts(block).map((r, i) => hexBytes(encodeReceipt(r, block.block.transactions[i]!.type)));
}

export function debugGetRawTransaction([hash]: [Uint8Array], ctx: RpcContext): string | null {
  const location = ctx.chain.txByHash(hash);
  return location === undefined ? null : hexBytes(location.block.block.transactions[location.index]!.serialize());
}
