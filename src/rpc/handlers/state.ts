// State reads at any block, as a go-ethereum archive node answers them (internal/ethapi/api.go
// GetBalance, GetTransactionCount, GetCode, GetStorageAt), from the trie at the block's root.
import { hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { StateReader } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { resolveNumberOrHash } from './blockReads.ts';

/** eth/api_backend.go StateAndHeaderByNumberOrHash: the state after the block, or its error text. */
async function stateAt(param: BlockNumberOrHash, ctx: RpcContext): Promise<StateReader> {
  const block = resolveNumberOrHash(ctx.chain, param);
  if (block === undefined) throw new ServerError('hash' in param ? 'header for hash not found' : 'header not found');
  if (ctx.chain.stateAfter === undefined) throw new ServerError('state is not available here');
  return ctx.chain.stateAfter(block);
}

export const ethGetBalance = async ([address, block]: [Uint8Array, BlockNumberOrHash], ctx: RpcContext) =>
  hexQuantity(await (await stateAt(block, ctx)).balance(address));

export const ethGetTransactionCount = async ([address, block]: [Uint8Array, BlockNumberOrHash], ctx: RpcContext) =>
  hexQuantity(await (await stateAt(block, ctx)).nonce(address));

export const ethGetCode = async ([address, block]: [Uint8Array, BlockNumberOrHash], ctx: RpcContext) =>
  hexBytes(await (await stateAt(block, ctx)).code(address));

export async function ethGetStorageAt([address, key, block]: [Uint8Array, string, BlockNumberOrHash], ctx: RpcContext): Promise<string> {
  const slot = decodeStorageKey(key);
  return hexBytes(await (await stateAt(block, ctx)).storage(address, slot));
}

/** internal/ethapi/api.go decodeHash: 0x optional, odd lengths padded, at most 32 bytes. */
function decodeStorageKey(key: string): Uint8Array {
  let hex = key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key;
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new ServerError('unable to decode storage key: hex string invalid');
  if (hex.length > 64) throw new ServerError('unable to decode storage key: hex string too long, want at most 32 bytes');
  return setLengthLeft(hexToBytes(`0x${hex}`), 32);
}
