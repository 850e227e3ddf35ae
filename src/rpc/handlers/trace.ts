// trace_block / trace_transaction (Parity flat traces), as reth answers them.
import { ResourceNotFoundError } from '../../errors/rpcErrors.ts';
import type { RpcContext, TraceList } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { recordWithin } from './record.ts';
import { fetchBlock, fetchTx, isGenesis } from './resolve.ts';

export async function traceBlock([selector]: [BlockSelector], ctx: RpcContext): Promise<TraceList> {
  const block = await fetchBlock(ctx.chain, selector);
  if (block === undefined) {
    // reth EthApiError::HeaderNotFound → -32001 "block not found: 0x3f4" (BlockNumberOrTag display)
    throw new ResourceNotFoundError(`block not found: 0x${('number' in selector ? selector.number : 0n).toString(16)}`);
  }
  // The genesis block is not replayed: no transactions, and no reward trace (anvil answers []).
  if (isGenesis(ctx.chain, block)) return [];
  return ctx.parity.block(await recordWithin(ctx, block, undefined));
}

/** reth answers null for an unknown transaction. */
export async function traceTransaction([hash]: [Uint8Array], ctx: RpcContext): Promise<TraceList | null> {
  const location = await fetchTx(ctx.chain, hash);
  if (location === undefined || isGenesis(ctx.chain, location.block)) return null;
  return ctx.parity.tx(await recordWithin(ctx, location.block, undefined), location.index);
}
