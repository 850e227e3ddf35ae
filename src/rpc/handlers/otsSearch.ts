// The Otterscan API's address history: ots_searchTransactionsBefore/After, and the lookups
// ots_getTransactionBySenderAndNonce and ots_getContractCreator, answered from the chain index
// (chainIndex/) in time that does not grow with the chain. The pages are anvil 1.7.1's
// (crates/anvil/src/eth/otterscan/api.rs): anvil walks the blocks one by one from the given one,
// takes every transaction of a block whose Parity traces name the address (the block's last
// transaction first), and stops at the first block it reaches once it holds `pageSize`
// transactions, so a page ends with a whole block; `firstPage` and `lastPage` say whether that walk
// reached the head or block 1. Both pages list the newest transaction first, as Erigon does and
// Otterscan expects (docs/otterscan.md). The index gives the blocks that hold matches; the walk
// between them is done in arithmetic.
import { hexBytes } from '../../encoding/hex.ts';
import { ResponseTooLargeError, ServerError } from '../../errors/rpcErrors.ts';
import type { ChainIndex } from '../../chainIndex/chainIndex.ts';
import { receiptsOnce } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import { anvilOtsReceipt, anvilTransaction } from './anvilJson.ts';

type Json = Record<string, unknown>;

function indexOf(ctx: RpcContext): ChainIndex {
  if (ctx.chain.chainIndex === undefined) throw new ServerError('the Otterscan searches need a chain held here (not in upstream mode)');
  return ctx.chain.chainIndex;
}

/** The number of leading ids of `ids` whose block is below `block` (ids ascend, so their blocks do). */
function countBelow(index: ChainIndex, ids: Uint32Array, block: bigint): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.blockOf(ids[mid]!) < block) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Page {
  readonly ids: number[];
  readonly firstPage: boolean;
  readonly lastPage: boolean;
}

/** anvil ots_search_transactions_before: from the block before `blockNumber` (0: the head) down to block 1. */
function pageBefore(ctx: RpcContext, index: ChainIndex, address: string, blockNumber: bigint, pageSize: bigint): Page {
  const best = ctx.chain.head.number;
  const lowest = ctx.chain.genesis.number + 1n;
  const from = blockNumber === 0n ? best : blockNumber - 1n;
  const firstPage = from >= best;
  // blocks past the head do not exist: the walk passes them without looking
  const start = from < best ? from : best;
  if (from < lowest) return { ids: [], firstPage, lastPage: false };
  if (start < lowest) return { ids: [], firstPage, lastPage: true };
  if (pageSize === 0n) return { ids: [], firstPage, lastPage: false };
  const ids: number[] = [];
  const posted = index.postings(address);
  let i = countBelow(index, posted, start + 1n) - 1;
  while (i >= 0) {
    const block = index.blockOf(posted[i]!);
    while (i >= 0 && index.blockOf(posted[i]!) === block) ids.push(posted[i--]!);
    // the next block down stops the walk, unless this one was block 1
    if (BigInt(ids.length) >= pageSize) return { ids, firstPage, lastPage: block === lowest };
  }
  return { ids, firstPage, lastPage: true };
}

/**
 * anvil ots_search_transactions_after: from the block after `blockNumber` (0: block 1) up to the
 * head; newest first throughout, as Erigon sorts both searches (otterscan_search_v3.go), where anvil
 * reverses its walk and so lists each block's transactions oldest first.
 */
function pageAfter(ctx: RpcContext, index: ChainIndex, address: string, blockNumber: bigint, pageSize: bigint): Page {
  const best = ctx.chain.head.number;
  const lowest = ctx.chain.genesis.number + 1n;
  const from = blockNumber === 0n ? lowest : blockNumber + 1n;
  const initialFirst = from >= best;
  if (from > best) return { ids: [], firstPage: initialFirst, lastPage: false };
  const lastPage = from <= lowest && lowest <= best;
  if (pageSize === 0n) return { ids: [], firstPage: initialFirst, lastPage };
  const ids: number[] = [];
  const posted = index.postings(address);
  let firstPage = true;
  for (let i = countBelow(index, posted, from); i < posted.length; ) {
    const block = index.blockOf(posted[i]!);
    while (i < posted.length && index.blockOf(posted[i]!) === block) ids.push(posted[i++]!);
    // the next block up stops the walk, unless this one was the head
    if (BigInt(ids.length) >= pageSize) {
      firstPage = block === best ? true : initialFirst;
      break;
    }
  }
  return { ids: ids.reverse(), firstPage, lastPage };
}

/**
 * The page's transactions and receipts. A page as long as the address's history (a page size of
 * 10^9) is bounded by the response limit as it is made: go-ethereum's -32003 once the entries made
 * take more than --max-response, the rest of the page not read.
 */
function transactionsWithReceipts(ctx: RpcContext, index: ChainIndex, page: Page): Json {
  const txs: Json[] = [];
  const receipts: Json[] = [];
  let bytes = 0;
  for (const id of page.ids) {
    const at = index.locate(id);
    const block = ctx.chain.blockByNumber(at.block)!;
    const receipt = receiptsOnce(ctx.chain, block)[at.index]!;
    const tx = anvilTransaction(block, at.index, receipt);
    const otsReceipt = anvilOtsReceipt(block, at.index, receipt, true);
    if (ctx.maxResponse > 0) {
      bytes += JSON.stringify(tx).length + JSON.stringify(otsReceipt).length;
      if (bytes > ctx.maxResponse) throw new ResponseTooLargeError();
    }
    txs.push(tx);
    receipts.push(otsReceipt);
  }
  return { txs, receipts, firstPage: page.firstPage, lastPage: page.lastPage };
}

export function otsSearchTransactionsBefore([address, blockNumber, pageSize]: [string, bigint, bigint], ctx: RpcContext): Json {
  const index = indexOf(ctx);
  return transactionsWithReceipts(ctx, index, pageBefore(ctx, index, address, blockNumber, pageSize));
}

export function otsSearchTransactionsAfter([address, blockNumber, pageSize]: [string, bigint, bigint], ctx: RpcContext): Json {
  const index = indexOf(ctx);
  return transactionsWithReceipts(ctx, index, pageAfter(ctx, index, address, blockNumber, pageSize));
}

function txHash(ctx: RpcContext, index: ChainIndex, id: number): string {
  const at = index.locate(id);
  return hexBytes(ctx.chain.blockByNumber(at.block)!.block.transactions[at.index]!.hash());
}

/** The hash of the transaction `sender` sent with `nonce`, or null. */
export function otsGetTransactionBySenderAndNonce([sender, nonce]: [string, bigint], ctx: RpcContext): string | null {
  const index = indexOf(ctx);
  const id = index.sentWith(sender, nonce);
  return id === undefined ? null : txHash(ctx, index, id);
}

/**
 * The creation of the contract at `address`, or null. As Erigon (otterscan_contract_creator.go
 * GetContractCreator), an account with no code at the head has no creator, so a creation that
 * reverted or a contract since destroyed answers null; anvil names the last creation its traces
 * show. While the account has code, the index's last creation is the one that made it.
 */
export async function otsGetContractCreator([address]: [string], ctx: RpcContext): Promise<Json | null> {
  const index = indexOf(ctx);
  const creation = index.creator(address);
  if (creation === undefined || ctx.chain.stateAfter === undefined) return null;
  const code = await (await ctx.chain.stateAfter(ctx.chain.head)).code(Buffer.from(address.slice(2), 'hex'));
  return code.length === 0 ? null : { hash: txHash(ctx, index, creation.tx), creator: creation.creator };
}
