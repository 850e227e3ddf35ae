// trace_replayBlockTransactions, trace_replayTransaction, trace_filter and trace_get as reth answers
// them (crates/rpc/rpc/src/trace.rs), from the same block recordings as trace_block.
import type { RenderedJson } from '../../encoding/boundedJson.ts';
import { hexBytes } from '../../encoding/hex.ts';
import { LazyArray, lazyMap, nth } from '../../encoding/lazyJson.ts';
import { InvalidParamsError, ResourceNotFoundError } from '../../errors/rpcErrors.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import type { ParityTraceJson } from '../../trace/render/parity.ts';
import type { TraceTypes } from '../../trace/render/stateDiff.ts';
import { vmTracer } from '../../trace/render/vmTrace.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import type { TraceFilter, TraceTypeName } from '../serdeParams.ts';
import { recordWithin } from './record.ts';
import { fetchBlock, fetchTx, isGenesis } from './resolve.ts';
import { type SteppedResult, traceSteps } from './steps.ts';

/** reth's default --rpc.max-trace-filter-blocks (rpc-server-types constants.rs). */
export const MAX_TRACE_FILTER_BLOCKS = 100n;

/** The trace types asked for. */
export function traceTypes(names: ReadonlySet<TraceTypeName>): TraceTypes {
  return { trace: names.has('trace'), stateDiff: names.has('stateDiff'), vmTrace: names.has('vmTrace') };
}

/**
 * A run with the vmTrace step tracer watching the block's transactions (or only the one at `only`):
 * each vmTrace is written as its transaction runs, within --max-response (steps.ts), and the
 * recording it leaves gives the other trace types as a run without steps does.
 */
function replayWithVmTrace(ctx: RpcContext, block: ChainBlock, only: number | undefined): Promise<SteppedResult[]> {
  return traceSteps(ctx, vmTracer, {}, undefined, block, only, (options) => ctx.chain.recordBlock(block, options));
}

export async function traceReplayBlockTransactions(
  [selector, names]: [BlockSelector, ReadonlySet<TraceTypeName>],
  ctx: RpcContext,
): Promise<LazyArray<unknown> | [] | null> {
  const types = traceTypes(names);
  const block = await fetchBlock(ctx.chain, selector);
  // reth trace_block_with: no block, no answer (null)
  if (block === undefined) return null;
  if (isGenesis(ctx.chain, block)) return [];
  if (types.vmTrace) {
    const traced = await replayWithVmTrace(ctx, block, undefined);
    return lazyMap(traced, ({ tx, result }) => ({ ...ctx.parity.results(tx, types, result as RenderedJson), transactionHash: hexBytes(tx.txHash) }));
  }
  const recording = await recordWithin(ctx, block, undefined, { state: types.stateDiff });
  return lazyMap(recording.txs, (tx) => ({ ...ctx.parity.results(tx, types), transactionHash: hexBytes(tx.txHash) }));
}

export async function traceReplayTransaction(
  [hash, names]: [Uint8Array, ReadonlySet<TraceTypeName>],
  ctx: RpcContext,
): Promise<unknown> {
  const types = traceTypes(names);
  const location = await fetchTx(ctx.chain, hash);
  // EthApiError::TransactionNotFound
  if (location === undefined || isGenesis(ctx.chain, location.block)) throw new ResourceNotFoundError('transaction not found');
  if (types.vmTrace) {
    const [traced] = await replayWithVmTrace(ctx, location.block, location.index);
    if (traced === undefined) throw new Error(`run of block ${location.block.number} has no tx ${location.index}`);
    return ctx.parity.results(traced.tx, types, traced.result as RenderedJson);
  }
  const recording = await recordWithin(ctx, location.block, undefined, { state: types.stateDiff });
  return ctx.parity.results(recording.txs[location.index]!, types);
}

/** reth trace_get: exactly one index (Erigon's rule), else null; null past the last trace. */
export async function traceGet([hash, indices]: [Uint8Array, readonly number[]], ctx: RpcContext): Promise<unknown> {
  if (indices.length !== 1) return null;
  const location = await fetchTx(ctx.chain, hash);
  if (location === undefined || isGenesis(ctx.chain, location.block)) return null;
  const traces = ctx.parity.tx(await recordWithin(ctx, location.block, undefined), location.index);
  return nth(traces, indices[0]!) ?? null;
}

function matcher(filter: TraceFilter): (trace: ParityTraceJson) => boolean {
  const from = new Set(filter.fromAddress.map(hexBytes));
  const to = new Set(filter.toAddress.map(hexBytes));
  const fromMatches = (a: string | undefined): boolean => from.size === 0 || (a !== undefined && from.has(a));
  const toMatches = (a: string | undefined): boolean => to.size === 0 || (a !== undefined && to.has(a));
  // alloy rpc-types-trace filter.rs TraceFilterMatcher::matches
  return (trace) => {
    const action = trace.action as unknown as Record<string, string>;
    let f: boolean, t: boolean;
    switch (trace.type) {
      case 'call':
        [f, t] = [fromMatches(action['from']), toMatches(action['to'])];
        break;
      case 'create': {
        const address = trace.result !== null && 'address' in trace.result ? trace.result.address : undefined;
        [f, t] = [fromMatches(action['from']), address !== undefined ? toMatches(address) : to.size === 0];
        break;
      }
      case 'suicide':
        [f, t] = [fromMatches(action['address']), toMatches(action['refundAddress'])];
        break;
      case 'reward':
        [f, t] = [from.size === 0, toMatches(action['author'])];
        break;
    }
    if (filter.mode === 'intersection') return f && t;
    if (from.size === 0) return t;
    if (to.size === 0) return f;
    return f || t;
  };
}

export async function traceFilter([filter]: [TraceFilter], ctx: RpcContext): Promise<LazyArray<unknown> | readonly unknown[]> {
  const latest = ctx.chain.head.number;
  const start = filter.fromBlock ?? 0n;
  if (start > latest) throw new ResourceNotFoundError(`block not found: 0x${start.toString(16)}`);
  const end = filter.toBlock ?? latest;
  if (end > latest) throw new ResourceNotFoundError(`block not found: 0x${end.toString(16)}`);
  if (start > end) throw new InvalidParamsError('invalid parameters: fromBlock cannot be greater than toBlock');
  if (end - start > MAX_TRACE_FILTER_BLOCKS) {
    throw new InvalidParamsError(`Block range too large; currently limited to ${MAX_TRACE_FILTER_BLOCKS} blocks`);
  }
  const matches = matcher(filter);
  const skip = filter.after === undefined ? 0 : Number(filter.after);
  const take = filter.count === undefined ? Number.POSITIVE_INFINITY : Number(filter.count);
  // with a count, the answer is at most `count` traces: they are kept as they are found, and no
  // block past the one that completes it is traced; without one, every trace of the range is
  // rendered and matched as the answer is written (a huge range stops at the size limit)
  const bounded = take !== Number.POSITIVE_INFINITY;
  const kept: ParityTraceJson[] = [];
  const blocks: Iterable<ParityTraceJson>[] = [];
  let skipped = 0;
  for (let n = start; n <= end && kept.length < take; n++) {
    const block: ChainBlock | undefined = await fetchBlock(ctx.chain, { number: n });
    if (block === undefined) throw new ResourceNotFoundError(`block not found: 0x${n.toString(16)}`);
    if (isGenesis(ctx.chain, block)) continue;
    const traces = ctx.parity.block(await recordWithin(ctx, block, undefined)) as Iterable<ParityTraceJson>;
    if (!bounded) {
      blocks.push(traces);
      continue;
    }
    for (const trace of traces) {
      if (kept.length >= take) break;
      if (!matches(trace)) continue;
      if (skipped < skip) skipped++;
      else kept.push(trace);
    }
  }
  if (bounded) return kept;
  return new LazyArray(function* () {
    let passed = 0;
    for (const traces of blocks) {
      for (const trace of traces) {
        if (!matches(trace)) continue;
        if (passed++ >= skip) yield trace;
      }
    }
  });
}
