// go-ethereum's block-level debug methods beyond tracing a block of the chain (eth/tracers/api.go
// IntermediateRoots, TraceBlock, TraceBadBlock; eth/api_debug.go GetBadBlocks). A fixture has no bad
// blocks: its blocks all replayed to their headers' roots at load.
import { hexBytes } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { TraceConfig } from '../schemas.ts';
import { traceBlock } from './debug.ts';
import { isGenesis } from './resolve.ts';

export async function debugIntermediateRoots([hash]: [Uint8Array, TraceConfig | undefined], ctx: RpcContext): Promise<string[] | null> {
  const block = ctx.chain.blockByHash(hash);
  if (block === undefined) throw new ServerError(`block ${hexBytes(hash)} not found`);
  if (isGenesis(ctx.chain, block)) throw new ServerError('genesis is not traceable');
  if (ctx.chain.intermediateRoots === undefined) throw new ServerError('state is not available here');
  const roots = await ctx.chain.intermediateRoots(block);
  // a nil []common.Hash for a block without transactions
  return roots.length === 0 ? null : roots.map(hexBytes);
}

/** rlp.DecodeBytes into types.Block, with the texts of go-ethereum's rlp package where they are plain. */
function decodeBlock(rlp: Uint8Array, ctx: RpcContext): ChainBlock {
  if (rlp.length === 0) throw new ServerError('could not decode block: EOF');
  if (rlp[0]! < 0xc0) throw new ServerError('could not decode block: rlp: expected input list for types.extblock');
  if (ctx.chain.blockFromRlp === undefined) throw new ServerError('could not decode block: not available here');
  try {
    return ctx.chain.blockFromRlp(rlp);
  } catch (err) {
    throw new ServerError(`could not decode block: rlp: ${(err as Error).message}`);
  }
}

/** debug_traceBlock: the block given as RLP, traced on its parent's state as debug_traceBlockByHash traces one. */
export async function debugTraceBlock([rlp, options]: [Uint8Array, TraceConfig | undefined], ctx: RpcContext) {
  const given = decodeBlock(rlp, ctx);
  if (given.number === 0n) throw new ServerError('genesis is not traceable');
  // api.go blockByNumberAndHash: the parent by number, else by hash
  const byNumber = ctx.chain.blockByNumber(given.number - 1n);
  if (byNumber === undefined) throw new ServerError(`block #${given.number - 1n} not found`);
  const parentHash = given.block.header.parentHash;
  if (!Buffer.from(byNumber.hash).equals(Buffer.from(parentHash)) && ctx.chain.blockByHash(parentHash) === undefined) {
    throw new ServerError(`block ${hexBytes(parentHash)} not found`);
  }
  // a block of the chain is traced as itself (its recording may be kept already)
  return traceBlock(ctx.chain.blockByHash(given.hash) ?? given, options, ctx);
}

export const debugGetBadBlocks = (): unknown[] => [];

export function debugTraceBadBlock([hash]: [Uint8Array, TraceConfig | undefined]): never {
  throw new ServerError(`bad block ${hexBytes(hash)} not found`);
}
