// eth_call (go-ethereum internal/ethapi/api.go Call, doCall): the message runs on the state after the
// block; a revert is error 3 with its data, another failure -32000 with its message.
import { hexBytes } from '../../encoding/hex.ts';
import { ExecutionRevertedError, ServerError } from '../../errors/rpcErrors.ts';
import type { BlockOverrides, StateOverrides } from '../../replay/overrides.ts';
import { gethError } from '../../trace/render/errorStrings.ts';
import { decodeRevertReason } from '../../trace/render/revertReason.ts';
import { callRequest, type CallArgs } from '../callParams.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { headerAt } from './blockReads.ts';

import { RPC_GAS_CAP } from '../callParams.ts';

export async function ethCall(
  [args, at, stateOverrides, blockOverrides]: [CallArgs, BlockNumberOrHash | undefined, StateOverrides | undefined, BlockOverrides | undefined],
  ctx: RpcContext,
): Promise<string> {
  const block = headerAt(ctx.chain, at);
  if (ctx.chain.call === undefined) throw new ServerError('calls are not available here');
  // the gas defaults to, and is capped at, the RPC gas cap, not the block's gas limit
  // (internal/ethapi/transaction_args.go CallDefaults; anvil uses the block's gas limit)
  const request = callRequest(args, blockOverrides?.baseFeePerGas ?? block.block.header.baseFeePerGas, RPC_GAS_CAP, ctx.chain.chainId);
  const overrides = { state: stateOverrides, block: blockOverrides };
  const outcome = await ctx.chain.call(block, request, overrides);
  if (outcome.kind === 'ok') return hexBytes(outcome.returnData);
  if (outcome.kind === 'reverted') throw new ExecutionRevertedError(decodeRevertReason(outcome.returnData), hexBytes(outcome.returnData));
  throw new ServerError(outcome.kind === 'failed' ? gethError(outcome.failure) : outcome.message);
}
