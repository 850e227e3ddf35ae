// debug_traceBlockByNumber / ByHash / debug_traceTransaction, with go-ethereum's checks in its
// order (eth/tracers/api.go): block lookup, genesis, tracer and its config, timeout, then replay.
import { hexBytes } from '../../encoding/hex.ts';
import { type LazyArray, lazyMap } from '../../encoding/lazyJson.ts';
import { InvalidParamsError, ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import { findTracer, type TracerEntry } from '../../trace/registry.ts';
import { isStepped } from '../../trace/tracerEntry.ts';
import type { RpcContext } from '../context.ts';
import { toPlain } from '../../encoding/rawJson.ts';
import { parseGoDuration } from '../goDuration.ts';
import { checkTracerConfig, type BlockSelector, NO_LOGGER_OPTIONS, type TraceConfig } from '../schemas.ts';
import { recordWithin } from './record.ts';
import { fetchBlock, fetchBlockByHash, fetchTx, isGenesis } from './resolve.ts';
import { traceSteps } from './steps.ts';

/** A tracer chosen and its config checked, before anything executes. */
interface TracerChoice {
  readonly entry: TracerEntry<unknown>;
  readonly config: unknown;
  /** `timeout` in ms, if given; otherwise the server's default applies (record.ts). */
  readonly timeoutMs: number | undefined;
}

function supported(ctx: RpcContext): string {
  return `(supported: ${ctx.tracers.names().join(', ')})`;
}

export function chooseTracer(options: TraceConfig | undefined, ctx: RpcContext): TracerChoice {
  const name = options?.tracer;
  let entry: TracerEntry<unknown> | undefined;
  let config: unknown;
  if (name === undefined || name === '') {
    // no tracer: go-ethereum's struct logger, whose options are TraceConfig's own (tracerConfig unread)
    entry = ctx.tracers.unnamed() as TracerEntry<unknown> | undefined;
    if (entry === undefined) {
      ctx.optInRefused("the struct logger (a trace request that names no tracer)");
      throw new InvalidParamsError(`tracer is required ${supported(ctx)}`);
    }
    config = options?.logger ?? NO_LOGGER_OPTIONS;
  } else {
    entry = ctx.tracers.find(name);
    if (entry === undefined) {
      if (!ctx.allTracers && findTracer(name, true) !== undefined) ctx.optInRefused(`tracer ${JSON.stringify(name)}`);
      throw new InvalidParamsError(`tracer ${JSON.stringify(name)} is not supported ${supported(ctx)}`);
    }
    const node = options?.tracerConfig;
    config = node === undefined || node.t === 'null' ? {} : toPlain(node);
    const problem = checkTracerConfig(name, entry.configSchema, config) ?? entry.check?.(config);
    if (problem !== undefined) throw new InvalidParamsError(problem);
  }
  let timeoutMs: number | undefined;
  if (options?.timeout !== undefined) {
    try {
      timeoutMs = parseGoDuration(options.timeout);
    } catch (err) {
      // go-ethereum returns time.ParseDuration's error as is: code -32000
      throw new ServerError((err as Error).message);
    }
  }
  return { entry, config, timeoutMs };
}

export async function traceBlock(block: ChainBlock, options: TraceConfig | undefined, ctx: RpcContext): Promise<LazyArray<unknown>> {
  if (isGenesis(ctx.chain, block)) throw new ServerError('genesis is not traceable');
  const { entry, config, timeoutMs } = chooseTracer(options, ctx);
  if (isStepped(entry, config)) {
    // each transaction rendered as it runs, the whole answer within the size limit
    const results = await traceSteps(ctx, entry, config, timeoutMs, block, undefined, (options) => ctx.chain.recordBlock(block, options));
    return lazyMap(results, ({ tx, result }) => ({ txHash: hexBytes(tx.txHash), result }));
  }
  const recording = await recordWithin(ctx, block, timeoutMs, { state: entry.needs(config).state });
  // each transaction is rendered when the answer is written, so a huge block stops at the size limit
  return lazyMap(recording.txs, (tx) => ({ txHash: hexBytes(tx.txHash), result: entry.render(tx, config, recording) }));
}

export async function debugTraceBlockByNumber(
  [selector, options]: [BlockSelector, TraceConfig | undefined],
  ctx: RpcContext,
): Promise<LazyArray<unknown>> {
  const block = await fetchBlock(ctx.chain, selector);
  if (block === undefined) {
    // fmt.Errorf("block #%d not found", number): decimal
    throw new ServerError(`block #${'number' in selector ? selector.number : 0n} not found`);
  }
  return traceBlock(block, options, ctx);
}

export async function debugTraceBlockByHash(
  [hash, options]: [Uint8Array, TraceConfig | undefined],
  ctx: RpcContext,
): Promise<LazyArray<unknown>> {
  const block = await fetchBlockByHash(ctx.chain, hash);
  if (block === undefined) throw new ServerError(`block ${hexBytes(hash)} not found`);
  return traceBlock(block, options, ctx);
}

export async function debugTraceTransaction(
  [hash, options]: [Uint8Array, TraceConfig | undefined],
  ctx: RpcContext,
): Promise<unknown> {
  const location = await fetchTx(ctx.chain, hash);
  if (location === undefined) throw new ServerError('transaction not found');
  if (isGenesis(ctx.chain, location.block)) throw new ServerError('genesis is not traceable');
  const { entry, config, timeoutMs } = chooseTracer(options, ctx);
  if (isStepped(entry, config)) {
    const only = location.index;
    const [traced] = await traceSteps(ctx, entry, config, timeoutMs, location.block, only, (options) => ctx.chain.recordBlock(location.block, options));
    if (traced === undefined) throw new Error(`run of block ${location.block.number} has no tx ${only}`);
    return traced.result;
  }
  const recording = await recordWithin(ctx, location.block, timeoutMs, { state: entry.needs(config).state });
  const tx = recording.txs[location.index];
  if (tx === undefined) throw new Error(`recording of block ${location.block.number} has no tx ${location.index}`);
  return entry.render(tx, config, recording);
}
