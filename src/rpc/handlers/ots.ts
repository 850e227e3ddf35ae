// The Otterscan API's per-transaction and per-account methods, and erigon_getHeaderByNumber, as
// anvil 1.7.1 answers them (crates/anvil/src/eth/otterscan/api.rs), where Otterscan's reference
// (Erigon) agrees; docs/otterscan.md lists where blocktrace follows Erigon instead.
import { hexBytes } from '../../encoding/hex.ts';
import { DataUnavailableError, InvalidParamsError, ResourceNotFoundError, ServerError } from '../../errors/rpcErrors.ts';
import type { TxLocation } from '../../replay/chainView.ts';
import { renderInternalOps, type InternalOperationJson } from '../../trace/render/otsInternalOps.ts';
import { renderOtsTrace, type OtsTraceEntry } from '../../trace/render/otsTrace.ts';
import type { TxRecording } from '../../trace/types.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { anvilHeader } from './anvilJson.ts';
import { recordWithin } from './record.ts';
import { fetchTx, isGenesis, resolveBlock } from './resolve.ts';

/** Otterscan's MIN_API_LEVEL, which anvil and Erigon (API_LEVEL) answer. */
const API_LEVEL = 8;

export const otsGetApiLevel = (): number => API_LEVEL;

/** The recording of the transaction at `location` (its block replayed, cached). */
async function recordingOf(ctx: RpcContext, location: TxLocation): Promise<TxRecording | undefined> {
  if (isGenesis(ctx.chain, location.block)) return undefined;
  return (await recordWithin(ctx, location.block, undefined)).txs[location.index];
}

/** anvil answers an unknown transaction with DataUnavailable (-32603). */
export async function otsGetInternalOperations([hash]: [Uint8Array], ctx: RpcContext): Promise<InternalOperationJson[]> {
  const location = await fetchTx(ctx.chain, hash);
  const tx = location === undefined ? undefined : await recordingOf(ctx, location);
  if (tx === undefined) throw new DataUnavailableError();
  return renderInternalOps(tx);
}

/** anvil answers an unknown transaction with no entries. */
export async function otsTraceTransaction([hash]: [Uint8Array], ctx: RpcContext): Promise<OtsTraceEntry[]> {
  const location = await fetchTx(ctx.chain, hash);
  const tx = location === undefined ? undefined : await recordingOf(ctx, location);
  return tx === undefined ? [] : renderOtsTrace(tx);
}

/**
 * The output of a failed transaction: its revert data, `0x` when it halted (out of gas, invalid
 * opcode: no output), when it succeeded or when it is unknown.
 */
export async function otsGetTransactionError([hash]: [Uint8Array], ctx: RpcContext): Promise<string> {
  const location = await fetchTx(ctx.chain, hash);
  if (location === undefined || ctx.chain.receipts(location.block)[location.index]?.status !== 0) return '0x';
  const root = (await recordingOf(ctx, location))?.frames[0];
  return root?.failure?.kind === 'reverted' ? hexBytes(root.output) : '0x';
}

/** Whether the account has code after the block; a block past the head is anvil's BlockOutOfRangeError. */
export async function otsHasCode([address, selector]: [string, BlockSelector | undefined], ctx: RpcContext): Promise<boolean> {
  const head = ctx.chain.head.number;
  if (selector !== undefined && 'number' in selector && selector.number > head) {
    throw new InvalidParamsError(`BlockOutOfRangeError: block height is ${head} but requested was ${selector.number}`);
  }
  const block = resolveBlock(ctx.chain, selector ?? { tag: 'latest' });
  if (block === undefined) throw new ResourceNotFoundError('Resource not found');
  if (ctx.chain.stateAfter === undefined) throw new ServerError('state is not available here');
  const state = await ctx.chain.stateAfter(block);
  return (await state.code(Buffer.from(address.slice(2), 'hex'))).length > 0;
}

/**
 * The block's header, or null. anvil answers the whole block (api.rs erigon_get_header_by_number);
 * Erigon, whose method it is, the header alone (erigon rpc/jsonrpc/erigon_block.go
 * GetHeaderByNumber): blocktrace writes the header, in anvil's layout.
 */
export function erigonGetHeaderByNumber([selector]: [BlockSelector], ctx: RpcContext): Record<string, unknown> | null {
  const block = resolveBlock(ctx.chain, selector);
  return block === undefined ? null : anvilHeader(ctx.chain, block);
}
