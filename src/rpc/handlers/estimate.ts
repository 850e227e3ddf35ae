// eth_estimateGas as go-ethereum answers it (internal/ethapi/api.go DoEstimateGas,
// eth/gasestimator/gasestimator.go Estimate): the same binary search, its optimistic first guess
// and its 1.5% error ratio, over eth_call's execution (replay/callExec.ts), so the answer is
// go-ethereum's to the unit.
//
// The search asks of each gas limit it tries only whether the message fails. When nothing the
// message runs can see the gas it has (byThreshold below), that answer is known from the first run:
// the message fails exactly below the gas its first run needed at its neediest point, so the
// search's later steps are answered from that figure instead of running the message four to six
// times more. The steps, and so the answer, are go-ethereum's.
import { getActivePrecompiles } from '@ethereumjs/evm';
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { hexQuantity } from '../../encoding/hex.ts';
import { ExecutionRevertedError, ServerError } from '../../errors/rpcErrors.ts';
import type { CallWatch } from '../../replay/callExec.ts';
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

const SSTORE = 0x55;
/**
 * Opcodes through which a message sees the gas it has: GAS, and the calls and creations, which pass
 * on a share of it (EIP-150) and run other code. SELFDESTRUCT is counted in too (EIP-7928 looks at
 * the gas left there).
 */
const SEES_GAS = new Set([0x5a, 0xf0, 0xf1, 0xf2, 0xf4, 0xf5, 0xfa, 0xff]);

/** Whether `code` contains none of SEES_GAS as an opcode (push data skipped), reachable or not. */
export function blindToGas(code: Uint8Array): boolean {
  if (code[0] === 0xef) return false; // EIP-7702 delegation, EOF
  for (let i = 0; i < code.length; i++) {
    const op = code[i]!;
    if (op >= 0x60 && op <= 0x7f) i += op - 0x5f;
    else if (SEES_GAS.has(op)) return false;
  }
  return true;
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

  if (base.data.length === 0 && base.to !== undefined) {
    const code = await (await ctx.chain.stateAfter!(block)).code(base.to);
    const overridden = stateOverrides?.get(Buffer.from(base.to).toString('hex'))?.code;
    if ((overridden ?? code).length === 0) {
      const simple = await run(TX_GAS);
      if (!simple.failed) return hexQuantity(TX_GAS);
    }
  }
  // byThreshold: the least gas with which the message succeeds, known from its first run
  const blind = options.byThreshold !== false && (await runsBlindToGas(ctx, block, base, stateOverrides));
  let sentryNeed = 0n;
  const sentry = block.block.common.param('sstoreSentryEIP2200Gas');
  const watch: CallWatch | undefined = blind
    ? { opcodes: [SSTORE], reached: (step) => (sentryNeed = maxOf(sentryNeed, hi - step.gasLeft + sentry + 1n)) }
    : undefined;
  const first = await run(hi, watch);
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
  const threshold = blind ? maxOf(intrinsic + first.executionGas!, sentryNeed) : undefined;
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

/**
 * Whether the message's success depends on its gas limit only through a threshold: it calls a
 * contract (no precompile, no code moved or delegated) whose code contains none of SEES_GAS, so
 * every run with enough gas runs the same opcodes, each charged the same, and fails only where the
 * gas left is below an opcode's cost or, at an SSTORE, at or below the EIP-2200 sentry. It pays no
 * fee (the funds check would depend on the gas), carries no blobs or authorizations, and the fork
 * is one whose gas rules are those (Istanbul on, none of EIP-6800, 7864, 7928, 8037, 8038).
 */
async function runsBlindToGas(ctx: RpcContext, block: ReturnType<typeof headerAt>, request: CallRequest, stateOverrides: StateOverrides | undefined): Promise<boolean> {
  const common = block.block.common;
  if (request.to === undefined || request.gasPrice !== 0n || (request.feeCap ?? 0n) !== 0n) return false;
  if ((request.blobHashes?.length ?? 0) > 0 || (request.authorizations?.length ?? 0) > 0) return false;
  if (!common.gteHardfork('istanbul') || [6800, 7864, 7928, 8037, 8038].some((eip) => common.isActivatedEIP(eip))) return false;
  for (const override of stateOverrides?.values() ?? []) if (override.movePrecompileToAddress !== undefined) return false;
  const to = bytesToUnprefixedHex(request.to);
  if (getActivePrecompiles(common).has(to)) return false;
  const code = stateOverrides?.get(to)?.code ?? (await (await ctx.chain.stateAfter!(block)).code(request.to));
  return code.length > 0 && blindToGas(code);
}
