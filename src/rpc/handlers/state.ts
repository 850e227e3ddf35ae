// State reads at any block, as a go-ethereum archive node answers them (internal/ethapi/api.go
// GetBalance, GetTransactionCount, GetCode, GetStorageAt), from the trie at the block's root.
import { bytesToBigInt, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ClientLimitExceededError, InvalidParamsError, ServerError } from '../../errors/rpcErrors.ts';
import type { StateReader } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import type { StorageRequest } from '../storageParams.ts';
import { headerAt } from './blockReads.ts';

/** eth/api_backend.go StateAndHeaderByNumberOrHash: the state after the block, or its error text. */
async function stateAt(param: BlockNumberOrHash | undefined, ctx: RpcContext): Promise<StateReader> {
  const block = headerAt(ctx.chain, param);
  if (ctx.chain.stateAfter === undefined) throw new ServerError('state is not available here');
  return ctx.chain.stateAfter(block);
}

export const ethGetBalance = async ([address, block]: [Uint8Array, BlockNumberOrHash | undefined], ctx: RpcContext) =>
  hexQuantity(await (await stateAt(block, ctx)).balance(address));

export const ethGetTransactionCount = async ([address, block]: [Uint8Array, BlockNumberOrHash | undefined], ctx: RpcContext) =>
  hexQuantity(await (await stateAt(block, ctx)).nonce(address));

export const ethGetCode = async ([address, block]: [Uint8Array, BlockNumberOrHash | undefined], ctx: RpcContext) =>
  hexBytes(await (await stateAt(block, ctx)).code(address));

export async function ethGetStorageAt([address, key, block]: [Uint8Array, string, BlockNumberOrHash | undefined], ctx: RpcContext): Promise<string> {
  const slot = decodeStorageKey(key);
  return hexBytes(await (await stateAt(block, ctx)).storage(address, slot));
}

/** internal/ethapi/api.go maxGetStorageSlots. */
const MAX_STORAGE_SLOTS = 1024;

/**
 * internal/ethapi/api.go GetStorageValues: the slots are counted first (too many: -38026, none:
 * -32602 "empty request"), then read at the block; addresses come back as a Go map writes them,
 * lowercase and sorted.
 */
export async function ethGetStorageValues([requests, block]: [StorageRequest[], BlockNumberOrHash | undefined], ctx: RpcContext) {
  let total = 0;
  for (const { slots } of requests) {
    total += slots.length;
    if (total > MAX_STORAGE_SLOTS) throw new ClientLimitExceededError(`too many slots (max ${MAX_STORAGE_SLOTS})`);
  }
  if (total === 0) throw new InvalidParamsError('empty request');
  const state = await stateAt(block, ctx);
  const answers: [string, string[]][] = [];
  for (const { address, slots } of requests) {
    const values: string[] = [];
    for (const slot of slots) values.push(hexBytes(await state.storage(address, slot)));
    answers.push([hexBytes(address), values]);
  }
  return Object.fromEntries(answers.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * internal/ethapi/api.go GetProof: keys in go-ethereum's AccountResult order; a storage key is
 * written back as 32 bytes when given as 32 bytes, else as a quantity.
 */
export async function ethGetProof([address, keys, block]: [Uint8Array, readonly string[], BlockNumberOrHash | undefined], ctx: RpcContext) {
  const slots = keys.map(decodeStorageKey);
  const proof = await (await stateAt(block, ctx)).proof(address, slots);
  return {
    address: hexBytes(address),
    accountProof: proof.accountProof.map(hexBytes),
    balance: hexQuantity(proof.balance),
    codeHash: hexBytes(proof.codeHash),
    nonce: hexQuantity(proof.nonce),
    storageHash: hexBytes(proof.storageHash),
    storageProof: keys.map((key, i) => ({
      key: keyLength(key) === 32 ? hexBytes(slots[i]!) : hexQuantity(bytesToBigInt(slots[i]!)),
      value: hexQuantity(proof.storageProof[i]!.value),
      proof: proof.storageProof[i]!.proof.map(hexBytes),
    })),
  };
}

function keyLength(key: string): number {
  const hex = key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key;
  return Math.ceil(hex.length / 2);
}

/** internal/ethapi/api.go decodeStorageKey: 0x optional, odd lengths padded, at most 32 bytes (go-ethereum v1.17 texts, -32602). */
function decodeStorageKey(key: string): Uint8Array {
  let hex = key.startsWith('0x') || key.startsWith('0X') ? key.slice(2) : key;
  if (hex.length % 2 === 1) hex = `0${hex}`;
  if (!/^[0-9a-fA-F]*$/.test(hex)) throw new InvalidParamsError(`invalid hex in storage key: ${JSON.stringify(key)}`);
  if (hex.length > 64) throw new InvalidParamsError(`storage key too long (want at most 32 bytes): ${JSON.stringify(key)}`);
  return setLengthLeft(hexToBytes(`0x${hex}`), 32);
}
