// Calls traced at a block: debug_traceCall (go-ethereum eth/tracers/api.go TraceCall, callTracer and
// prestateTracer bytes) and trace_call / trace_callMany (reth crates/rpc/rpc/src/trace.rs, Parity
// TraceResults). The call runs as a transaction on the state after the block, recorded by the same
// recorder as a block replay (replay/callTrace.ts), and is rendered by the same renderers.
import type { RenderedJson } from '../../encoding/boundedJson.ts';
import { InvalidParamsError, ResourceNotFoundError, ServerError, TransactionRejectedError } from '../../errors/rpcErrors.ts';
import { CallRejectedError, type TracedCalls } from '../../replay/callTrace.ts';
import type { ChainBlock, RecordOptions } from '../../replay/chainView.ts';
import type { BlockOverrides, StateOverrides } from '../../replay/overrides.ts';
import type { TraceTypes } from '../../trace/render/stateDiff.ts';
import { vmTracer } from '../../trace/render/vmTrace.ts';
import { isStepped } from '../../trace/tracerEntry.ts';
import type { TxRecording } from '../../trace/types.ts';
import { callRequest, type CallArgs } from '../callParams.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import type { TraceCallConfig } from '../overrideParams.ts';
import type { TraceTypeName } from '../serdeParams.ts';
import { resolveNumberOrHash } from './blockReads.ts';
import { chooseTracer } from './debug.ts';
import { withinDeadline } from './record.ts';
import { traceSteps } from './steps.ts';
import { traceTypes } from './traceReplay.ts';

/** The calls' traces, under a deadline (the request's, else the server's). */
function traceWithin(ctx: RpcContext, block: ChainBlock, request: TracedCalls, options: RecordOptions, timeoutMs: number | undefined): Promise<TxRecording[]> {
  const traceCalls = ctx.chain.traceCalls;
  if (traceCalls === undefined) throw new ServerError('traced calls are not available here');
  return withinDeadline(ctx, timeoutMs, () => traceCalls(block, request, options));
}

function baseFeeOf(block: ChainBlock, overrides: BlockOverrides | undefined): bigint | undefined {
  return overrides?.baseFeePerGas ?? block.block.header.baseFeePerGas;
}

export async function debugTraceCall(
  [args, at, callConfig]: [CallArgs, BlockNumberOrHash, TraceCallConfig | undefined],
  ctx: RpcContext,
): Promise<unknown> {
  if ('tag' in at && at.tag === 'pending') throw new ServerError('tracing on top of pending is not supported');
  const block = resolveNumberOrHash(ctx.chain, at);
  if (block === undefined) {
    throw new ServerError('hash' in at ? `block ${'0x' + Buffer.from(at.hash).toString('hex')} not found` : `block #${'number' in at ? at.number : 0n} not found`);
  }
  const { entry, config: tracerConfig, timeoutMs } = chooseTracer(callConfig?.trace, ctx);
  if (callConfig?.txIndex !== undefined) throw new InvalidParamsError('txIndex is not supported by blocktrace');
  const request: TracedCalls = {
    calls: [callRequest(args, baseFeeOf(block, callConfig?.blockOverrides), undefined, ctx.chain.chainId)],
    stateOverrides: callConfig?.stateOverrides,
    blockOverrides: callConfig?.blockOverrides,
  };
  try {
    if (isStepped(entry, tracerConfig)) {
      const traceCalls = ctx.chain.traceCalls;
      if (traceCalls === undefined) throw new ServerError('traced calls are not available here');
      const at = { number: block.number, hash: block.hash, call: true };
      const [traced] = await traceSteps(ctx, entry, tracerConfig, timeoutMs, at, undefined, (options) => traceCalls(block, request, options));
      return traced!.result;
    }
    const txs = await traceWithin(ctx, block, request, { state: entry.needs(tracerConfig).state }, timeoutMs);
    return entry.render(txs[0]!, tracerConfig, { number: block.number, hash: block.hash, txs, rewards: [], call: true });
  } catch (err) {
    if (err instanceof CallRejectedError) throw new ServerError(`tracing failed: ${err.message}`);
    throw err;
  }
}

/** reth: a block that is not there is HeaderNotFound. */
function rethBlock(ctx: RpcContext, at: BlockNumberOrHash | undefined): ChainBlock {
  const block = at === undefined ? ctx.chain.head : resolveNumberOrHash(ctx.chain, at);
  if (block === undefined) {
    const id = at === undefined ? 'latest' : 'hash' in at ? `hash 0x${Buffer.from(at.hash).toString('hex')}` : 'number' in at ? `0x${at.number.toString(16)}` : 'tag' in at ? at.tag : '';
    throw new ResourceNotFoundError(`block not found: ${id}`);
  }
  return block;
}

/**
 * The calls run in order, each traced; with a vmTrace asked for, every call runs with the vmTrace step
 * tracer watching (steps.ts), its text kept for the calls that asked.
 */
async function runCalls(ctx: RpcContext, block: ChainBlock, request: TracedCalls, types: readonly TraceTypes[]): Promise<{ tx: TxRecording; vmTrace?: RenderedJson }[]> {
  if (!types.some((t) => t.vmTrace)) {
    return (await traceWithin(ctx, block, request, { state: types.some((t) => t.stateDiff) }, undefined)).map((tx) => ({ tx }));
  }
  const traceCalls = ctx.chain.traceCalls;
  if (traceCalls === undefined) throw new ServerError('traced calls are not available here');
  const at = { number: block.number, hash: block.hash, call: true };
  const traced = await traceSteps(ctx, vmTracer, {}, undefined, at, undefined, (options) => traceCalls(block, request, options));
  return traced.map(({ tx, result }, i) => (types[i]!.vmTrace ? { tx, vmTrace: result as RenderedJson } : { tx }));
}

async function parityCalls(ctx: RpcContext, block: ChainBlock, calls: readonly [CallArgs, ReadonlySet<TraceTypeName>][], stateOverrides?: StateOverrides, blockOverrides?: BlockOverrides): Promise<unknown[]> {
  const types = calls.map(([, names]) => traceTypes(names));
  const baseFee = baseFeeOf(block, blockOverrides);
  const request: TracedCalls = { calls: calls.map(([args]) => callRequest(args, baseFee, undefined, ctx.chain.chainId)), stateOverrides, blockOverrides };
  let txs: { tx: TxRecording; vmTrace?: RenderedJson }[];
  try {
    txs = await runCalls(ctx, block, request, types);
  } catch (err) {
    if (err instanceof CallRejectedError) {
      // reth RpcInvalidTransactionError: GasTooLow is -32000, InsufficientFunds -32003 without the address
      if (err.kind === 'intrinsicGas') throw new ServerError('intrinsic gas too low');
      throw new TransactionRejectedError(err.message.replace(/address 0x[0-9a-fA-F]{40} /, ''));
    }
    throw err;
  }
  return txs.map(({ tx, vmTrace }, i) => ctx.parity.results(tx, types[i]!, vmTrace));
}

export async function traceCall(
  [args, names, at, stateOverrides, blockOverrides]: [CallArgs, ReadonlySet<TraceTypeName>, BlockNumberOrHash | undefined, StateOverrides | undefined, BlockOverrides | undefined],
  ctx: RpcContext,
): Promise<unknown> {
  const block = rethBlock(ctx, at);
  return (await parityCalls(ctx, block, [[args, names]], stateOverrides, blockOverrides))[0];
}

export async function traceCallMany(
  [calls, at]: [readonly [CallArgs, ReadonlySet<TraceTypeName>][], BlockNumberOrHash | undefined],
  ctx: RpcContext,
): Promise<unknown[]> {
  const block = rethBlock(ctx, at);
  if (calls.length === 0) return [];
  return parityCalls(ctx, block, calls);
}
