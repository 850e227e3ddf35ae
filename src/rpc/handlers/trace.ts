// trace_block / trace_transaction (Parity flat traces), as reth answers them.
import { ResourceNotFoundError } from '../../errors/rpcErrors.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { resolveBlock } from './resolve.ts';

export async function traceBlock([selector]: [BlockSelector], ctx: RpcContext): Promise<readonly unknown[]> {
  const block = resolveBlock(ctx.chain, selector);
  if (block === undefined) {
    // reth EthApiError::HeaderNotFound → -32001 "block not found: 0x3f4" (BlockNumberOrTag display)
    throw new ResourceNotFoundError(`block not found: 0x${('number' in selector ? selector.number : 0n).toString(16)}`);
  }
  // The genesis block is not replayed: no transactions, and no reward trace (anvil answers []).
  if (block.number === 0n) return [];
  return ctx.parity.block(await ctx.chain.recordBlock(block));
}

/** reth answers null for an unknown transaction. */
export async function traceTransaction([hash]: [Uint8Array], ctx: RpcContext): Promise<readonly unknown[] | null> {
  const location = ctx.chain.txByHash(hash);
  if (location === undefined || location.block.number === 0n) return null;
  return ctx.parity.tx(await ctx.chain.recordBlock(location.block), location.index);
}
