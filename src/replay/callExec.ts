// One message run on the state after a block, as go-ethereum's eth_call runs it (internal/ethapi
// api.go doCall with vm.Config{NoBaseFee: true}): the block's own header as context, intrinsic gas
// taken first, no nonce check, the fee charged only for a non-zero gas price. The state is a copy of
// the block's (its own message state and EVM): nothing of it reaches the chain or its recordings.
import type { Block } from '@ethereumjs/block';
import type { EVM } from '@ethereumjs/evm';
import { Address, bytesToHex, bytesToUnprefixedHex, createAccount, toChecksumAddress } from '@ethereumjs/util';
import { applyAuthorizations } from './authorizations.ts';
import type { ReplayStateManager } from './replayState.ts';
import type { Failure } from '../trace/types.ts';
import { type CallRequest, callBlock, floorDataGas, intrinsicGas } from './message.ts';
import { failureOf, sstoreGasLeftAtHalt } from './failures.ts';
import { shareOpcodeTable, watchOpcodes, yieldOnJumps } from './opcodeHooks.ts';
import { messageEvm } from './opcodeTables.ts';
import { applyBlockOverrides, applyStateOverrides, type BlockOverrides, type StateOverrides } from './overrides.ts';

/** eth_call's state and block overrides (go-ethereum internal/ethapi/override). */
export interface CallOverrides {
  readonly state?: StateOverrides | undefined;
  readonly block?: BlockOverrides | undefined;
}

/**
 * An opcode reached, before its gas is charged, as go-ethereum's OnOpcode hook sees it: also when it
 * then fails on gas or stack. `address` is the frame's storage owner; `top` the stack's top items,
 * top first (at most two).
 */
export interface CallStep {
  readonly op: number;
  readonly address: Uint8Array;
  readonly stackSize: number;
  readonly top: readonly bigint[];
  /** The frame's gas left before the opcode's gas is charged. */
  readonly gasLeft: bigint;
}

/** Which opcodes a call's observer sees, and the observer. */
export interface CallWatch {
  readonly opcodes: readonly number[];
  readonly reached: (step: CallStep) => void;
}

export type CallOutcome =
  /**
   * `gasUsed`: intrinsic + execution gas before the refund; `usedGas` after the refund and the
   * EIP-7623 floor, as go-ethereum's ExecutionResult UsedGas (MaxUsedGas is `gasUsed`, floored).
   */
  | { readonly kind: 'ok'; readonly returnData: Uint8Array; readonly gasUsed: bigint; readonly usedGas: bigint; readonly executionGas: bigint }
  | { readonly kind: 'reverted'; readonly returnData: Uint8Array; readonly gasUsed: bigint; readonly usedGas: bigint }
  /** A failure go-ethereum reports with its message (-32000). */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly usedGas: bigint }
  /** The message could not start (go-ethereum's pre-checks): intrinsic gas, funds. */
  | { readonly kind: 'rejected'; readonly reason: 'intrinsicGas' | 'floorDataGas' | 'funds'; readonly message: string };

export async function executeCall(
  base: ReplayStateManager,
  root: Uint8Array,
  header: Block,
  blockchain: unknown,
  request: CallRequest,
  overrides?: CallOverrides,
  watch?: CallWatch,
): Promise<CallOutcome> {
  const state = base.messageState(root);
  // go-ethereum applyMessage: a call without gas price runs with the base fee lowered to 0
  const block = callBlock(overrides?.block === undefined ? header : applyBlockOverrides(header, overrides.block), request.gasPrice);
  if (overrides?.state !== undefined) await applyStateOverrides(state, overrides.state);
  const from = new Address(request.from);
  const balance = (await state.getAccount(from))?.balance ?? 0n;
  const blobGas = 131072n * BigInt(request.blobHashes?.length ?? 0);
  const cost = request.gas * (request.feeCap ?? request.gasPrice) + request.value + blobGas * (request.blobFeeCap ?? 0n);
  if (balance < cost) {
    // core/state_transition.go buyGas: the sender as common.Address.Hex (EIP-55)
    return { kind: 'rejected', reason: 'funds', message: `insufficient funds for gas * price + value: address ${toChecksumAddress(from.toString())} have ${balance} want ${cost}` };
  }
  // after the funds, as core/state_transition.go execute checks them (preCheck, then IntrinsicGas)
  const intrinsic = intrinsicGas(block, request);
  if (request.gas < intrinsic) return { kind: 'rejected', reason: 'intrinsicGas', message: `intrinsic gas too low: have ${request.gas}, want ${intrinsic}` };
  const floor = floorDataGas(block, request);
  if (floor !== undefined && request.gas < floor) {
    return { kind: 'rejected', reason: 'floorDataGas', message: `insufficient gas for floor data gas cost: have ${request.gas}, want ${floor}` };
  }
  const { evm, release } = await messageEvm({ common: block.common, stateManager: state, blockchain: blockchain as never });
  try {
    return await runMessage(evm, state, block, request, intrinsic, watch);
  } finally {
    release();
  }
}

async function runMessage(evm: EVM, state: ReplayStateManager, block: Block, request: CallRequest, intrinsic: bigint, watch: CallWatch | undefined): Promise<CallOutcome> {
  const from = new Address(request.from);
  yieldOnJumps(evm);
  shareOpcodeTable(evm, block.common, block.common.hardfork());
  // the addresses a transaction starts with warm (EIP-2929, EIP-3651), and its access list (EIP-2930)
  if (block.common.isActivatedEIP(2929)) {
    evm.journal.addAlwaysWarmAddress(bytesToHex(request.from).slice(2));
    if (request.to !== undefined) evm.journal.addAlwaysWarmAddress(bytesToHex(request.to).slice(2));
    for (const p of evm.precompiles.keys()) evm.journal.addAlwaysWarmAddress(p);
    if (block.common.isActivatedEIP(3651)) evm.journal.addAlwaysWarmAddress(block.header.coinbase.toString().slice(2));
    for (const tuple of request.accessList ?? []) {
      const address = bytesToUnprefixedHex(tuple.address);
      evm.journal.addAlwaysWarmAddress(address);
      for (const key of tuple.storageKeys) evm.journal.addAlwaysWarmSlot(address, bytesToUnprefixedHex(key));
    }
  }
  if (watch !== undefined) {
    watchOpcodes(evm, watch.opcodes, (op, rs) => {
      const n = rs.stack.length;
      watch.reached({ op, address: rs.env.address.bytes, stackSize: n, top: rs.stack.peek(Math.min(n, 2)), gasLeft: rs.gasLeft });
    });
  }
  let authRefund = 0n;
  const auths = request.authorizations ?? [];
  if (auths.length > 0) {
    // the sender's nonce is bumped before the authorizations are applied (a self-sponsored one signs nonce + 1)
    const sender = (await state.getAccount(from)) ?? createAccount({});
    sender.nonce += 1n;
    await state.putAccount(from, sender);
    authRefund = await applyAuthorizations(state, block.common.chainId(), auths, (a) => evm.journal.addAlwaysWarmAddress(a.toString().slice(2)));
  }
  const result = await evm.runCall({
    ...(auths.length > 0 ? { skipNonceIncrement: true } : {}),
    ...(request.blobHashes !== undefined ? { blobVersionedHashes: request.blobHashes.map((h) => bytesToHex(h)) } : {}),
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
  const error = exec.exceptionError?.error;
  // a failed or reverted message keeps no refund: its frame's journal is reverted
  const used = gasUsed(block, request, intrinsic + exec.executionGasUsed, (error === undefined ? (exec.gasRefund ?? 0n) : 0n) + authRefund);
  if (error === undefined) return { kind: 'ok', returnData: exec.returnValue, ...used, executionGas: exec.executionGasUsed };
  if (error === 'revert') return { kind: 'reverted', returnData: exec.returnValue, ...used };
  const frame = { kind: request.to === undefined ? 'CREATE' : 'CALL', to: request.to, input: request.data, precompile: request.to !== undefined && evm.precompiles.has(bytesToUnprefixedHex(request.to)) } as const;
  const failure = failureOf(exec, frame, block.common, sstoreGasLeftAtHalt(exec)) ?? { kind: 'other', message: error };
  return { kind: 'failed', failure, usedGas: used.usedGas };
}

/**
 * core/state_transition.go execute: `usedGas` after refundGas (EIP-3529 quotient 5 from London)
 * and the EIP-7623 floor; `gasUsed` (before the refund) floored too.
 */
function gasUsed(block: Block, request: CallRequest, spent: bigint, refund: bigint): { gasUsed: bigint; usedGas: bigint } {
  const c = block.common;
  const quotient = c.gteHardfork('london') ? 5n : 2n;
  let usedGas = spent - (refund < spent / quotient ? refund : spent / quotient);
  const floor = floorDataGas(block, request);
  if (floor === undefined) return { gasUsed: spent, usedGas };
  if (usedGas < floor) usedGas = floor;
  return { gasUsed: spent < floor ? floor : spent, usedGas };
}
