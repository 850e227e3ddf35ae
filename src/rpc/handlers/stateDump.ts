// debug_dumpBlock and debug_accountRange (go-ethereum eth/api_debug.go DumpBlock, AccountRange;
// core/state/dump.go DumpToCollector, Dump, DumpAccount): the accounts of the state after a block,
// in hashed-address order from a start hash, with their code and their storage whose keys are known.
import { setLengthLeft, toChecksumAddress } from '@ethereumjs/util';
import { hexBytes } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, Preimages, StateReader } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import type { BlockSelector } from '../schemas.ts';

/** eth/api_debug.go AccountRangeMaxResults: the most accounts one answer holds. */
export const ACCOUNT_RANGE_MAX_RESULTS = 256;

interface DumpConfig {
  readonly skipCode: boolean;
  readonly skipStorage: boolean;
  readonly onlyWithAddresses: boolean;
  readonly start: Uint8Array;
  readonly max: number;
}

/** DumpAccount, keys in its struct order; `code`, `storage`, `address` omitted when empty. */
interface DumpAccountJson {
  balance: string;
  nonce: number;
  root: string;
  codeHash: string;
  code?: string;
  storage?: Record<string, string>;
  address?: string;
  key: string;
}

const byKey = <T>(entries: [string, T][]): Record<string, T> => Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** common.TrimLeftZeroes then common.Bytes2Hex: no 0x, no leading zero bytes. */
function slotValue(value: Uint8Array): string {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return Buffer.from(value.subarray(i)).toString('hex');
}

/** StateDB.RawDump: accounts keyed by checksummed address (or `pre(<hash>)`), sorted as a Go map. */
async function rawDump(state: StateReader, preimages: Preimages, conf: DumpConfig) {
  if (state.accounts === undefined || state.storageSlots === undefined || state.codeByHash === undefined || state.root === undefined) {
    throw new ServerError('state is not available here');
  }
  const accounts: [string, DumpAccountJson][] = [];
  let next: Uint8Array | undefined;
  const it = state.accounts(conf.start)[Symbol.asyncIterator]();
  for (let r = await it.next(); !r.done; r = await it.next()) {
    const account = r.value;
    const address = preimages.address(account.hash);
    if (address === undefined && conf.onlyWithAddresses) continue;
    const json: DumpAccountJson = { balance: account.balance.toString(), nonce: Number(account.nonce), root: hexBytes(account.storageRoot), codeHash: hexBytes(account.codeHash) } as DumpAccountJson;
    if (!conf.skipCode) {
      const code = await state.codeByHash(account.codeHash);
      if (code.length > 0) json.code = hexBytes(code);
    }
    if (!conf.skipStorage) {
      // a slot whose key is not known is left out (dump.go: storageIt.Key() fails, continue)
      const slots: [string, string][] = [];
      for await (const slot of state.storageSlots(account, new Uint8Array(32))) {
        const key = preimages.slot(slot.hash);
        if (key !== undefined) slots.push([hexBytes(key), slotValue(slot.value)]);
      }
      if (slots.length > 0) json.storage = byKey(slots);
    }
    if (address !== undefined) json.address = hexBytes(address);
    json.key = hexBytes(account.hash);
    accounts.push([address !== undefined ? toChecksumAddress(hexBytes(address)) : `pre(${hexBytes(account.hash)})`, json]);
    if (conf.max > 0 && accounts.length >= conf.max) {
      const after = await it.next();
      if (!after.done) next = after.value.hash;
      break;
    }
  }
  const dump: { root: string; accounts: Record<string, DumpAccountJson>; next?: string } = { root: hexBytes(state.root).slice(2), accounts: byKey(accounts) };
  if (next !== undefined) dump.next = hexBytes(next);
  return dump;
}

/** The block of DumpBlock / AccountRange's number branch, with their texts (`earliest` is -5 there). */
function dumpedBlock(ctx: RpcContext, selector: BlockSelector): ChainBlock {
  let block: ChainBlock | undefined;
  let number: bigint;
  if ('number' in selector) {
    number = selector.number;
    block = ctx.chain.blockByNumber(number);
  } else {
    // rpc.BlockNumber values of the tags; a fixture's pending state is its head's (rpc/handlers/resolve.ts)
    number = { earliest: -5n, safe: -4n, finalized: -3n, latest: -2n, pending: -1n }[selector.tag];
    block = selector.tag === 'earliest' ? undefined : selector.tag === 'finalized' ? ctx.chain.finalized : selector.tag === 'safe' ? ctx.chain.safe : ctx.chain.head;
  }
  if (block === undefined) throw new ServerError(`block #${number} not found`);
  return block;
}

async function stateOf(ctx: RpcContext, block: ChainBlock): Promise<[StateReader, Preimages]> {
  if (ctx.chain.stateAfter === undefined || ctx.chain.preimages === undefined) throw new ServerError('state is not available here');
  return [await ctx.chain.stateAfter(block), await ctx.chain.preimages()];
}

export async function debugDumpBlock([selector]: [BlockSelector], ctx: RpcContext) {
  const [state, preimages] = await stateOf(ctx, dumpedBlock(ctx, selector));
  return rawDump(state, preimages, { skipCode: false, skipStorage: false, onlyWithAddresses: true, start: new Uint8Array(32), max: ACCOUNT_RANGE_MAX_RESULTS });
}

export async function debugAccountRange(
  [at, start, maxResults, nocode, nostorage, incompletes]: [BlockNumberOrHash, Uint8Array, bigint, boolean, boolean, boolean],
  ctx: RpcContext,
) {
  let block: ChainBlock;
  if ('neither' in at) throw new ServerError('either block number or block hash must be specified');
  if ('hash' in at) {
    const found = ctx.chain.blockByHash(at.hash);
    if (found === undefined) throw new ServerError(`block ${hexBytes(at.hash)} not found`);
    block = found;
  } else {
    block = dumpedBlock(ctx, at);
  }
  const [state, preimages] = await stateOf(ctx, block);
  // common.BytesToHash: the last 32 bytes, left-padded
  const startHash = setLengthLeft(start.subarray(Math.max(0, start.length - 32)), 32);
  const max = maxResults > BigInt(ACCOUNT_RANGE_MAX_RESULTS) || maxResults <= 0n ? ACCOUNT_RANGE_MAX_RESULTS : Number(maxResults);
  return rawDump(state, preimages, { skipCode: nocode, skipStorage: nostorage, onlyWithAddresses: !incompletes, start: startHash, max });
}
