// eth_estimateGas as go-ethereum answers it (internal/ethapi/api.go DoEstimateGas,
// eth/gasestimator/gasestimator.go Estimate): the same binary search, its optimistic first guess
// and its 1.5% error ratio, over eth_call's execution (replay/callExec.ts), so the answer is
// go-ethereum's to the unit.
//
// The search asks of each gas limit it tries only whether the message fails. When nothing the
// message runs can see the gas it has (replay/gasThreshold.ts), that answer is known from the first
// run: the message fails exactly below the gas its first run needed at its neediest point, so the
// search's later steps are answered from that figure instead of running the message four to six
// times more. The steps, and so the answer, are go-ethereum's.
import { hexQuantity } from '../../encoding/hex.ts';
import { ExecutionRevertedError, ServerError } from '../../errors/rpcErrors.ts';
import type { CallWatch } from '../../replay/callExec.ts';
import { GasThreshold, thresholdApplies } from '../../replay/gasThreshold.ts';
import { type CallRequest, floorDataGas, intrinsicGas } from '../../replay/message.ts';
import type { BlockOverrides, StateOverrides } from '../../replay/overrides.ts';
import { gethError } from '../../trace/render/errorStrings.ts';
import { decodeRevertReason } from '../../trace/render/revertReason.ts';
import { callRequest, RPC_GAS_CAP, type CallArgs } from '../callParams.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { headerAt } from './blockReads.ts';

const TX_GAS = 21000n;
const CALL_STIPEND = 2300n;
/** params.MaxTxGas (EIP-7825, Osaka). */
const MAX_TX_GAS = 1n << 24n;
/** internal/ethapi estimateGasErrorRatio. */
const ERROR_RATIO = 0.015;

interface Run {
  readonly failed: boolean;
  readonly usedGas?: bigint;
  readonly maxUsedGas?: bigint;
  /** The execution's gas before the refund (intrinsic gas and the EIP-7623 floor left out). */
  readonly executionGas?: bigint;
  /** An execution failure other than running out of gas: its message, and revert data. */
  readonly error?: { readonly message: string; readonly revert?: Uint8Array };
}

export interface EstimateOptions {
  /** Answer the search's later steps from the first run where that is exact (default true). */
  readonly byThreshold?: boolean;
}

export async function ethEstimateGas(
  [args, at, stateOverrides, blockOverrides]: [CallArgs, BlockNumberOrHash | undefined, StateOverrides | undefined, BlockOverrides | undefined],
  ctx: RpcContext,
  options: EstimateOptions = {},
): Promise<string> {
  const block = headerAt(ctx.chain, at);
  const call = ctx.chain.call;
  if (call === undefined) throw new ServerError('calls are not available here');
  const header = block.block.header;
  const base = callRequest({ ...args, gas: 0n }, blockOverrides?.baseFeePerGas ?? header.baseFeePerGas, undefined, ctx.chain.chainId);
  const overrides = { state: stateOverrides, block: blockOverrides };

  const run = async (gas: bigint, watch?: CallWatch): Promise<Run> => {
    const outcome = await call(block, { ...base, gas } satisfies CallRequest, overrides, watch);
    switch (outcome.kind) {
      case 'ok':
        return { failed: false, usedGas: outcome.usedGas, maxUsedGas: outcome.gasUsed, executionGas: outcome.executionGas };
      case 'reverted':
        return { failed: true, error: { message: 'execution reverted', revert: outcome.returnData } };
      case 'failed': {
        // gasestimator: errors.Is(result.Err, vm.ErrOutOfGas) holds for every error go-ethereum
        // wraps as `out of gas: …` (the reentrancy sentry, write protection in a gas function)
        const message = gethError(outcome.failure);
        return message.startsWith('out of gas') ? { failed: true } : { failed: true, error: { message } };
      }
      case 'rejected':
        // ErrIntrinsicGas: raise the limit; anything else ends the estimate
        if (outcome.reason === 'intrinsicGas') return { failed: true };
        throw new ServerError(`failed with ${gas} gas: ${outcome.message}`);
    }
  };

  let hi = args.gas !== undefined && args.gas >= TX_GAS ? args.gas : (blockOverrides?.gasLimit ?? header.gasLimit);
  if (hi > MAX_TX_GAS && block.block.common.isActivatedEIP(7825)) hi = MAX_TX_GAS;
  const feeCap = args.maxFeePerGas ?? args.gasPrice ?? 0n;
  if (feeCap !== 0n) {
    const override = stateOverrides?.get(Buffer.from(base.from).toString('hex'))?.balance;
    let available = override ?? (await (await ctx.chain.stateAfter!(block)).balance(base.from));
    if (base.value !== 0n) {
      if (base.value >= available) throw new ServerError('insufficient funds for transfer');
      available -= base.value;
    }
    const allowance = available / feeCap;
    if (allowance < 1n << 64n && hi > allowance) hi = allowance;
  }
  if (hi > RPC_GAS_CAP) hi = RPC_GAS_CAP;

  // the code the message calls, as the state overrides leave it
  const code = base.to === undefined ? undefined : (stateOverrides?.get(Buffer.from(base.to).toString('hex'))?.code ?? (await (await ctx.chain.stateAfter!(block)).code(base.to)));
  if (base.data.length === 0 && code?.length === 0) {
    const simple = await run(TX_GAS);
    if (!simple.failed) return hexQuantity(TX_GAS);
  }
  // the least gas with which the message succeeds, known from its first run where
  // replay/gasThreshold.ts applies (no precompile moved by the overrides)
  const moved = [...(stateOverrides?.values() ?? [])].some((o) => o.movePrecompileToAddress !== undefined);
  const byThreshold =
    options.byThreshold !== false && code !== undefined && !moved && thresholdApplies(block.block.common, base, code) ? new GasThreshold(block.block.common, hi) : undefined;
  const first = await run(hi, byThreshold?.watch);
  if (first.failed) {
    if (first.error !== undefined) {
      if (first.error.revert !== undefined) throw new ExecutionRevertedError(decodeRevertReason(first.error.revert), `0x${Buffer.from(first.error.revert).toString('hex')}`);
      throw new ServerError(first.error.message);
    }
    throw new ServerError(`gas required exceeds allowance (${hi})`);
  }
  const intrinsic = intrinsicGas(block.block, base);
  // below the intrinsic gas or the EIP-7623 floor the message does not start: run it to say so
  const least = maxOf(intrinsic, floorDataGas(block.block, base) ?? 0n);
  const threshold = byThreshold?.least(intrinsic, first.executionGas!);
  const fails = async (gas: bigint): Promise<boolean> => (threshold !== undefined && gas >= least ? gas < threshold : (await run(gas)).failed);

  let lo = first.usedGas! - 1n;
  const optimistic = ((first.maxUsedGas! + CALL_STIPEND) * 64n) / 63n;
  if (optimistic < hi) {
    if (await fails(optimistic)) lo = optimistic;
    else hi = optimistic;
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break;
    let mid = lo + (hi - lo) / 2n;
    if (mid > lo * 2n) mid = lo * 2n;
    if (await fails(mid)) lo = mid;
    else hi = mid;
  }
  return hexQuantity(hi);
}

const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);
