// One message run on the state after a block, as go-ethereum's eth_call runs it (internal/ethapi
// api.go doCall with vm.Config{NoBaseFee: true}): the block's own header as context, intrinsic gas
// taken first, no nonce check, the fee charged only for a non-zero gas price. The state is a copy of
// the block's (its own state manager and EVM): nothing of it reaches the chain or its recordings.
import type { Block } from '@ethereumjs/block';
import { createEVM } from '@ethereumjs/evm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToHex } from '@ethereumjs/util';
import { callBlock } from './callTrace.ts';
import { applyBlockOverrides, applyStateOverrides, type BlockOverrides, type StateOverrides } from './overrides.ts';

/** eth_call's state and block overrides (go-ethereum internal/ethapi/override). */
export interface CallOverrides {
  readonly state?: StateOverrides | undefined;
  readonly block?: BlockOverrides | undefined;
}

export interface CallRequest {
  readonly from: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly gas: bigint;
  readonly gasPrice: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
}

export type CallOutcome =
  /**
   * `gasUsed`: intrinsic + execution gas before the refund; `usedGas` after the refund and the
   * EIP-7623 floor, as go-ethereum's ExecutionResult UsedGas (MaxUsedGas is `gasUsed`, floored).
   */
  | { readonly kind: 'ok'; readonly returnData: Uint8Array; readonly gasUsed: bigint; readonly usedGas: bigint }
  | { readonly kind: 'reverted'; readonly returnData: Uint8Array; readonly gasUsed: bigint }
  /** A failure go-ethereum reports with its message (-32000). */
  | { readonly kind: 'failed'; readonly message: string; readonly outOfGas?: boolean }
  /** The message could not start (go-ethereum's pre-checks): intrinsic gas, funds. */
  | { readonly kind: 'rejected'; readonly reason: 'intrinsicGas' | 'funds'; readonly message: string };

/** core/state_transition.go IntrinsicGas (no access list). */
export function intrinsicGas(block: Block, request: CallRequest): bigint {
  const c = block.common;
  let gas = request.to === undefined && c.gteHardfork('homestead') ? 53000n : 21000n;
  const nonZero = c.gteHardfork('istanbul') ? 16n : 68n;
  for (const byte of request.data) gas += byte === 0 ? 4n : nonZero;
  if (request.to === undefined && c.isActivatedEIP(3860)) gas += 2n * BigInt(Math.ceil(request.data.length / 32));
  return gas;
}

export async function executeCall(base: MerkleStateManager, root: Uint8Array, header: Block, blockchain: unknown, request: CallRequest, overrides?: CallOverrides): Promise<CallOutcome> {
  const state = base.shallowCopy(true);
  await state.setStateRoot(root);
  // go-ethereum applyMessage: a call without gas price runs with the base fee lowered to 0
  const block = callBlock(overrides?.block === undefined ? header : applyBlockOverrides(header, overrides.block), request.gasPrice);
  if (overrides?.state !== undefined) await applyStateOverrides(state, overrides.state);
  const intrinsic = intrinsicGas(block, request);
  if (request.gas < intrinsic) return { kind: 'rejected', reason: 'intrinsicGas', message: `intrinsic gas too low: have ${request.gas}, want ${intrinsic}` };
  const from = new Address(request.from);
  const balance = (await state.getAccount(from))?.balance ?? 0n;
  const cost = request.gas * request.gasPrice + request.value;
  if (balance < cost) {
    return { kind: 'rejected', reason: 'funds', message: `insufficient funds for gas * price + value: address ${from.toString()} have ${balance} want ${cost}` };
  }
  const evm = await createEVM({ common: block.common, stateManager: state, blockchain: blockchain as never });
  // the addresses a transaction starts with warm (EIP-2929, EIP-3651)
  if (block.common.isActivatedEIP(2929)) {
    evm.journal.addAlwaysWarmAddress(bytesToHex(request.from).slice(2));
    if (request.to !== undefined) evm.journal.addAlwaysWarmAddress(bytesToHex(request.to).slice(2));
    for (const p of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(p);
    if (block.common.isActivatedEIP(3651)) evm.journal.addAlwaysWarmAddress(block.header.coinbase.toString().slice(2));
  }
  const result = await evm.runCall({
    block,
    caller: from,
    origin: from,
    ...(request.to === undefined ? {} : { to: new Address(request.to) }),
    gasLimit: request.gas - intrinsic,
    gasPrice: request.gasPrice,
    value: request.value,
    data: request.data,
  });
  const exec = result.execResult;
  const gasUsed = intrinsic + exec.executionGasUsed;
  const error = exec.exceptionError?.error;
  if (error === undefined) {
    const c = block.common;
    // core/state_transition.go refundGas (EIP-3529 quotient 5 from London) and the EIP-7623 floor
    const quotient = c.gteHardfork('london') ? 5n : 2n;
    const refund = exec.gasRefund ?? 0n;
    let usedGas = gasUsed - (refund < gasUsed / quotient ? refund : gasUsed / quotient);
    if (c.isActivatedEIP(7623)) {
      let tokens = 0n;
      for (const byte of request.data) tokens += byte === 0 ? 1n : 4n;
      const floor = 21000n + 10n * tokens;
      if (usedGas < floor) usedGas = floor;
      return { kind: 'ok', returnData: exec.returnValue, gasUsed: gasUsed < floor ? floor : gasUsed, usedGas };
    }
    return { kind: 'ok', returnData: exec.returnValue, gasUsed, usedGas };
  }
  if (error === 'revert') return { kind: 'reverted', returnData: exec.returnValue, gasUsed };
  return { kind: 'failed', message: error, outOfGas: error === 'out of gas' };
}
