// Handlers ask the chain for a block's recording here, under the request's deadline. The recording
// is shared and cached by the chain (replay/chain.ts recordBlock): a request that gives up leaves it
// running, and a later request for the same block finds it done. go-ethereum instead stops the EVM
// (eth/tracers/api.go traceTx: tracer.Stop(errors.New("execution timeout"))); the answer is the same.
import { ExecutionTimeoutError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, RecordOptions } from '../../replay/chainView.ts';
import type { BlockRecording } from '../../trace/types.ts';
import type { RpcContext } from '../context.ts';

/** setTimeout's largest delay; a longer deadline is no deadline (Node would fire it at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The recording of `block`, or ExecutionTimeoutError once `timeoutMs` (the request's own, else the
 * server's default) has passed. A request's deadline of zero or less has passed already, as in
 * go-ethereum's context.WithTimeout; the server default 0 means no deadline.
 */
export function recordWithin(ctx: RpcContext, block: ChainBlock, timeoutMs: number | undefined, options?: RecordOptions): Promise<BlockRecording> {
  if (timeoutMs !== undefined && !(timeoutMs > 0)) return Promise.reject(new ExecutionTimeoutError());
  const limit = timeoutMs ?? ctx.traceTimeoutMs;
  const recording = ctx.chain.recordBlock(block, options);
  if (!(limit > 0) || limit > MAX_TIMER_MS) return recording;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ExecutionTimeoutError()), limit);
  });
  return Promise.race([recording, deadline]).finally(() => clearTimeout(timer));
}
