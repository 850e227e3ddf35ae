// Tracers that watch every opcode (the struct logger, erc7562Tracer): the block or call is run again
// for the request with a step sink, each watched transaction rendered while its opcodes run. What is
// written ahead counts against --max-response: once past it, the run stops and the answer is
// go-ethereum's -32003 "response too large"; past the deadline, it stops with "execution timeout".
import { TextBudget } from '../../encoding/boundedJson.ts';
import { ExecutionTimeoutError } from '../../errors/rpcErrors.ts';
import type { SteppedTracer } from '../../trace/tracerEntry.ts';
import type { RecordOptions } from '../../replay/chainView.ts';
import type { BlockRecording, StepSink, TxRecording } from '../../trace/types.ts';
import type { RpcContext } from '../context.ts';
import { withinDeadline } from './record.ts';

/** A watched transaction and its rendered result. */
export interface SteppedResult {
  readonly tx: TxRecording;
  readonly result: unknown;
}

/**
 * Runs `run(options)` (a block replay or traced calls, with the step sink and the state `entry` needs)
 * with `entry` watching transaction `only` (then the run ends after it) or every one, under the
 * request's deadline; their results in order. `block`: the block they are in (`call`: a traced call,
 * go-ethereum's empty tracer Context).
 */
export async function traceSteps(
  ctx: RpcContext,
  entry: SteppedTracer<unknown>,
  config: unknown,
  timeoutMs: number | undefined,
  block: { readonly number: bigint; readonly hash: Uint8Array; readonly call?: boolean },
  only: number | undefined,
  run: (options: RecordOptions) => Promise<unknown>,
): Promise<SteppedResult[]> {
  const needs = entry.needs(config);
  const tracer = entry.steps(config, new TextBudget(ctx.maxResponse));
  const results: SteppedResult[] = [];
  let stop: unknown;
  const sink: StepSink = {
    needs: needs.steps!,
    watches: (txIndex) => only === undefined || txIndex === only,
    only,
    begin: () => tracer.begin(),
    step: (step) => {
      if (stop !== undefined) throw stop;
      tracer.step(step);
    },
    end: (tx) => {
      results.push({ tx, result: tracer.end(tx, context) });
    },
  };
  const context: BlockRecording = { number: block.number, hash: block.hash, txs: [], rewards: [], ...(block.call === true ? { call: true } : {}) };
  // a run past the budget ends in OverBudget, which the dispatcher answers as too large
  await withinDeadline(ctx, timeoutMs, () => run({ steps: sink, state: needs.state }), () => {
    stop = new ExecutionTimeoutError();
  });
  return results;
}
