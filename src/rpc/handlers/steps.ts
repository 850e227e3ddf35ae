// Tracers that watch every opcode (the struct logger, erc7562Tracer): the block or call is run again
// for the request with a step sink, each watched transaction rendered while its opcodes run. What is
// written ahead counts against --max-response: once past it, the run stops and the answer is
// go-ethereum's -32003 "response too large"; past the deadline, it stops with "execution timeout".
import { OverBudget, TextBudget } from '../../encoding/boundedJson.ts';
import { ExecutionTimeoutError, ResponseTooLargeError } from '../../errors/rpcErrors.ts';
import type { SteppedTracer } from '../../trace/tracerEntry.ts';
import type { StepSink, TxRecording } from '../../trace/types.ts';
import type { RpcContext } from '../context.ts';
import { withinDeadline } from './record.ts';

/** A watched transaction and its rendered result. */
export interface SteppedResult {
  readonly tx: TxRecording;
  readonly result: unknown;
}

/**
 * Runs `run(sink)` (a block replay or traced calls) with `entry` watching the transactions `watches`
 * picks, under the request's deadline; their results in order.
 */
export async function traceSteps(
  ctx: RpcContext,
  entry: SteppedTracer<unknown>,
  config: unknown,
  timeoutMs: number | undefined,
  watches: (txIndex: number) => boolean,
  run: (sink: StepSink) => Promise<unknown>,
): Promise<SteppedResult[]> {
  const tracer = entry.steps(config, new TextBudget(ctx.maxResponse));
  const results: SteppedResult[] = [];
  let stop: unknown;
  const sink: StepSink = {
    needs: tracer.needs,
    watches,
    begin: () => tracer.begin(),
    step: (step) => {
      if (stop !== undefined) throw stop;
      tracer.step(step);
    },
    end: (tx) => {
      results.push({ tx, result: tracer.end(tx) });
    },
  };
  try {
    await withinDeadline(ctx, timeoutMs, () => run(sink), () => {
      stop = new ExecutionTimeoutError();
    });
  } catch (err) {
    if (err instanceof OverBudget) throw new ResponseTooLargeError();
    throw err;
  }
  return results;
}
