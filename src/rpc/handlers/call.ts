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
import { resolveNumberOrHash } from './blockReads.ts';

import { RPC_GAS_CAP } from '../callParams.ts';

export async function ethCall(
  [args, at, stateOverrides, blockOverrides]: [CallArgs, BlockNumberOrHash | undefined, StateOverrides | undefined, BlockOverrides | undefined],
  ctx: RpcContext,
): Promise<string> {
  const block = at === undefined ? ctx.chain.head : resolveNumberOrHash(ctx.chain, at);
  if (block === undefined) throw new ServerError(at !== undefined && 'hash' in at ? 'header for hash not found' : 'header not found');
  if (ctx.chain.call === undefined) throw new ServerError('calls are not available here');
  // no more than the gas cap, nor than the block's gas limit (as anvil and recent go-ethereum do)
  const gasLimit = blockOverrides?.gasLimit ?? block.block.header.gasLimit;
  const limit = gasLimit < RPC_GAS_CAP ? gasLimit : RPC_GAS_CAP;
  const request = callRequest(args, blockOverrides?.baseFeePerGas ?? block.block.header.baseFeePerGas, limit);
  const outcome = await ctx.chain.call(block, request, { state: stateOverrides, block: blockOverrides });
  if (outcome.kind === 'ok') return hexBytes(outcome.returnData);
  if (outcome.kind === 'reverted') throw new ExecutionRevertedError(decodeRevertReason(outcome.returnData), hexBytes(outcome.returnData));
  throw new ServerError(outcome.kind === 'failed' ? gethError(outcome.failure) : outcome.message);
}
