// debug_storageRangeAt and debug_getModifiedAccountsByNumber / ByHash (go-ethereum eth/api_debug.go
// StorageRangeAt, storageRangeAt, GetModifiedAccountsBy*, getModifiedAccounts), read from the
// state tries the replay keeps.
import { bytesToUnprefixedHex, equalsBytes, KECCAK256_RLP } from '@ethereumjs/util';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, StateReader, TrieAccount } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { resolveNumberOrHash } from './blockReads.ts';
import { isGenesis } from './resolve.ts';

interface StorageEntryJson {
  key: string | null;
  value: string;
}
interface StorageRangeJson {
  storage: Record<string, StorageEntryJson> | null;
  nextKey: string | null;
}

const NOTHING: StorageRangeJson = { storage: null, nextKey: null };

/**
 * rpc.BlockNumberOrHash as its String method writes it. go-ethereum formats the struct itself with
 * %v ("block %v not found"), which prints its pointers' addresses; blocktrace writes what they hold.
 */
function describe(at: BlockNumberOrHash): string {
  if ('hash' in at) return hexBytes(at.hash);
  if ('number' in at) return hexQuantity(at.number);
  return 'tag' in at ? at.tag : 'nil';
}

/** Whether a transaction before `txIndex` made the account anew or left it gone (its in-memory root is then empty). */
async function madeOrGoneBefore(ctx: RpcContext, block: ChainBlock, txIndex: number, address: Uint8Array): Promise<boolean> {
  if (txIndex === 0) return false;
  const key = bytesToUnprefixedHex(address);
  const recording = await ctx.chain.recordBlock(block, { state: true });
  return recording.txs.slice(0, txIndex).some((tx) => tx.state.created.has(key) || tx.state.accounts.get(key)?.existsAfter === false);
}

export async function debugStorageRangeAt(
  [at, txIndex, address, keyStart, maxResult]: [BlockNumberOrHash, bigint, Uint8Array, Uint8Array, bigint],
  ctx: RpcContext,
): Promise<StorageRangeJson> {
  const block = resolveNumberOrHash(ctx.chain, at);
  if (block === undefined) throw new ServerError(`block ${describe(at)} not found`);
  // eth/state_accessor.go stateAtTransaction
  if (isGenesis(ctx.chain, block)) throw new ServerError('no transaction in genesis');
  const count = BigInt(block.block.transactions.length);
  if (!((txIndex >= 0n && txIndex < count) || (txIndex === 0n && count === 0n))) {
    throw new ServerError(`transaction index ${txIndex} out of range for block ${hexBytes(block.hash)}`);
  }
  const parent = ctx.chain.blockByHash(block.block.header.parentHash);
  if (parent === undefined) throw new ServerError(`parent ${hexBytes(block.block.header.parentHash)} not found`);
  if (ctx.chain.stateAfter === undefined || ctx.chain.preimages === undefined) throw new ServerError('state is not available here');
  const state = await ctx.chain.stateAfter(parent);
  // storageRangeAt walks the committed trie at the account's root in the state before the
  // transaction, which go-ethereum does not recompute for the block's earlier transactions
  // (stateAtTransaction only finalises them): the parent's storage, none for an account they
  // created or removed
  const account = await state.account!(address);
  if (account === undefined || equalsBytes(account.storageRoot, KECCAK256_RLP) || (await madeOrGoneBefore(ctx, block, Number(txIndex), address))) return NOTHING;
  const preimages = await ctx.chain.preimages();
  const storage: [string, StorageEntryJson][] = [];
  let nextKey: string | null = null;
  for await (const slot of state.storageSlots!(account, keyStart)) {
    if (BigInt(storage.length) >= maxResult) {
      nextKey = hexBytes(slot.hash);
      break;
    }
    const key = preimages.slot(slot.hash);
    const value = new Uint8Array(32);
    value.set(slot.value.subarray(Math.max(0, slot.value.length - 32)), 32 - Math.min(32, slot.value.length));
    // no preimage: a null key, as go-ethereum without one (trie.GetKey returns nil)
    storage.push([hexBytes(slot.hash), { key: key === undefined ? null : hexBytes(key), value: hexBytes(value) }]);
  }
  return { storage: Object.fromEntries(storage.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), nextKey };
}

/** Accounts of `after` whose leaf is new or differs from `before`'s, in hashed-address order (trie.NewDifferenceIterator). */
async function* changed(before: StateReader, after: StateReader): AsyncGenerator<TrieAccount> {
  const old = before.accounts!(new Uint8Array(32))[Symbol.asyncIterator]();
  let o = await old.next();
  for await (const account of after.accounts!(new Uint8Array(32))) {
    while (!o.done && Buffer.compare(o.value.hash, account.hash) < 0) o = await old.next();
    const same =
      !o.done &&
      equalsBytes(o.value.hash, account.hash) &&
      o.value.nonce === account.nonce &&
      o.value.balance === account.balance &&
      equalsBytes(o.value.storageRoot, account.storageRoot) &&
      equalsBytes(o.value.codeHash, account.codeHash);
    if (!same) yield account;
  }
}

async function modifiedAccounts(ctx: RpcContext, start: ChainBlock, end: ChainBlock): Promise<string[] | null> {
  if (start.number >= end.number) throw new ServerError(`start block height (${start.number}) must be less than end block height (${end.number})`);
  if (ctx.chain.stateAfter === undefined || ctx.chain.preimages === undefined) throw new ServerError('state is not available here');
  const preimages = await ctx.chain.preimages();
  const before = await ctx.chain.stateAfter(start);
  const after = await ctx.chain.stateAfter(end);
  const dirty: string[] = [];
  for await (const account of changed(before, after)) {
    const address = preimages.address(account.hash);
    if (address === undefined) throw new ServerError(`no preimage found for hash ${bytesToUnprefixedHex(account.hash)}`);
    dirty.push(hexBytes(address));
  }
  // a nil []common.Address
  return dirty.length === 0 ? null : dirty;
}

export async function debugGetModifiedAccountsByNumber([startNum, endNum]: [bigint, bigint | undefined], ctx: RpcContext) {
  let start = ctx.chain.blockByNumber(startNum);
  if (start === undefined) throw new ServerError(`start block ${startNum.toString(16)} not found`);
  let end: ChainBlock | undefined;
  if (endNum === undefined) {
    end = start;
    start = ctx.chain.blockByHash(end.block.header.parentHash);
    if (start === undefined) throw new ServerError(`block ${end.number.toString(16)} has no parent`);
  } else {
    end = ctx.chain.blockByNumber(endNum);
    if (end === undefined) throw new ServerError(`end block ${endNum} not found`);
  }
  return modifiedAccounts(ctx, start, end);
}

export async function debugGetModifiedAccountsByHash([startHash, endHash]: [Uint8Array, Uint8Array | undefined], ctx: RpcContext) {
  let start = ctx.chain.blockByHash(startHash);
  if (start === undefined) throw new ServerError(`start block ${bytesToUnprefixedHex(startHash)} not found`);
  let end: ChainBlock | undefined;
  if (endHash === undefined) {
    end = start;
    start = ctx.chain.blockByHash(end.block.header.parentHash);
    if (start === undefined) throw new ServerError(`block ${end.number.toString(16)} has no parent`);
  } else {
    end = ctx.chain.blockByHash(endHash);
    if (end === undefined) throw new ServerError(`end block ${bytesToUnprefixedHex(endHash)} not found`);
  }
  return modifiedAccounts(ctx, start, end);
}
