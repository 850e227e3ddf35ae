// go-ethereum's message for a call that failed otherwise than by reverting (eth_call, eth_estimateGas:
// internal/ethapi/api.go returns result.Err, e.g. `invalid opcode: INVALID`, `stack underflow (0 <=> 2)`).
// The plain execution knows only ethereumjs's words, so the call is run again with the recorder,
// whose failure of the top frame the callTracer's error table words as go-ethereum does.
import type { CallRequest } from '../../replay/callExec.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import type { BlockOverrides, StateOverrides } from '../../replay/overrides.ts';
import { gethError } from '../../trace/render/errorStrings.ts';
import type { RpcContext } from '../context.ts';

export async function gethFailureMessage(
  ctx: RpcContext,
  block: ChainBlock,
  request: CallRequest,
  overrides: { readonly state: StateOverrides | undefined; readonly block: BlockOverrides | undefined },
  fallback: string,
): Promise<string> {
  if (ctx.chain.traceCalls === undefined) return fallback;
  try {
    const [tx] = await ctx.chain.traceCalls(block, { calls: [request], stateOverrides: overrides.state, blockOverrides: overrides.block });
    const failure = tx?.frames[0]?.failure;
    return failure === undefined || failure.kind === 'reverted' ? fallback : gethError(failure);
  } catch {
    return fallback;
  }
}
