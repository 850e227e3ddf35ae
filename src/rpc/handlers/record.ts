// Handlers ask the chain for a block's recording here, under the request's deadline. The recording
// is shared and cached by the chain (replay/chain.ts recordBlock): a request that gives up leaves it
// running, and a later request for the same block finds it done. go-ethereum instead stops the EVM
// (eth/tracers/api.go traceTx: tracer.Stop(errors.New("execution timeout"))); the answer is the same.
// A run made for one request alone (a stepped tracer's) is told to stop instead (`onDeadline`).
import { ExecutionTimeoutError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, RecordOptions } from '../../replay/chainView.ts';
import type { BlockRecording } from '../../trace/types.ts';
import type { RpcContext } from '../context.ts';

/** setTimeout's largest delay; a longer deadline is no deadline (Node would fire it at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `work()`, or ExecutionTimeoutError once `timeoutMs` (the request's own, else the server's default)
 * has passed; `onDeadline` is called then. A request's deadline of zero or less has passed already,
 * as in go-ethereum's context.WithTimeout; the server default 0 means no deadline.
 */
export function withinDeadline<T>(ctx: RpcContext, timeoutMs: number | undefined, work: () => Promise<T>, onDeadline?: () => void): Promise<T> {
  if (timeoutMs !== undefined && !(timeoutMs > 0)) return Promise.reject(new ExecutionTimeoutError());
  const limit = timeoutMs ?? ctx.traceTimeoutMs;
  const running = work();
  if (!(limit > 0) || limit > MAX_TIMER_MS) return running;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onDeadline?.();
      reject(new ExecutionTimeoutError());
    }, limit);
  });
  return Promise.race([running, deadline]).finally(() => clearTimeout(timer));
}

/** The recording of `block` under the request's deadline (withinDeadline). */
export function recordWithin(ctx: RpcContext, block: ChainBlock, timeoutMs: number | undefined, options?: RecordOptions): Promise<BlockRecording> {
  return withinDeadline(ctx, timeoutMs, () => ctx.chain.recordBlock(block, options));
}
