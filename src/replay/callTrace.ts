// Calls traced as transactions (debug_traceCall, trace_call, trace_callMany): each call becomes an
// unsigned transaction from its `from` and runs through runTx on the state after a block, with the
// same recorder as a block replay, so every renderer serves it unchanged. As go-ethereum's
// TraceCall and reth's prepare_call_env run them: the block's header as context with the base fee
// lowered to 0 when the call pays no gas price, no nonce check, no block gas limit, no EIP-7825 cap
// (the gas limit is set after the transaction is built). Unlike them, a sender with code (not an
// EIP-7702 delegation) is refused, as runTx applies EIP-3607.
import type { Block } from '@ethereumjs/block';
import { createAccessList2930Tx, createBlob4844Tx, createEOACode7702Tx, createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { authorizationTuple } from './authorizations.ts';
import { runTx, type VM } from '@ethereumjs/vm';
import { Address, bytesToHex, createAccount } from '@ethereumjs/util';
import type { StepSink, TxRecording } from '../trace/types.ts';
import { type CallRequest, callBlock, intrinsicGas } from './message.ts';
import { applyBlockOverrides, applyStateOverrides, type BlockOverrides, type StateOverrides } from './overrides.ts';
import type { Recorder } from './recorder.ts';
import { preloadKzg } from './kzg.ts';
import { unwind } from './unwind.ts';

/** A call that cannot start (go-ethereum's pre-checks); the message is the client's text. */
export class CallRejectedError extends Error {
  constructor(readonly kind: 'intrinsicGas' | 'funds', message: string) {
    super(message);
  }
}

export interface TracedCalls {
  readonly calls: readonly CallRequest[];
  readonly stateOverrides?: StateOverrides | undefined;
  readonly blockOverrides?: BlockOverrides | undefined;
}

/**
 * The call as an unsigned transaction: legacy, or with an access list (EIP-2930, from Berlin on) an
 * access-list transaction, so runTx charges the list as intrinsic gas and starts with it warm, as
 * go-ethereum's state transition does for the message of a call (core/state_transition.go).
 */
function unsignedTx(block: Block, request: CallRequest, nonce: bigint): TypedTransaction {
  const common = block.common;
  const fields = { nonce, gasPrice: request.gasPrice, gasLimit: 0n, ...(request.to === undefined ? {} : { to: request.to }), value: request.value, data: request.data };
  const opts = { common, freeze: false, allowUnlimitedInitCodeSize: true };
  const accessList = (request.accessList ?? []).map((t): [Uint8Array, Uint8Array[]] => [t.address, [...t.storageKeys]]);
  const tx = typedTx(common, request, fields, accessList, opts);
  const sender = new Address(request.from);
  Object.defineProperty(tx, 'gasLimit', { value: request.gas, writable: false });
  Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  // go-ethereum traces a call with an empty transaction context (tracers.Context{}): no hash
  Object.defineProperty(tx, 'hash', { value: () => new Uint8Array(32) });
  return tx;
}

/** The call's transaction type: EIP-7702 with authorizations, EIP-4844 with blob hashes, else as above. */
function typedTx(
  common: Block['common'],
  request: CallRequest,
  fields: { nonce: bigint; gasPrice: bigint; gasLimit: bigint; to?: Uint8Array; value: bigint; data: Uint8Array },
  accessList: [Uint8Array, Uint8Array[]][],
  opts: { common: Block['common']; freeze: boolean; allowUnlimitedInitCodeSize: boolean },
): TypedTransaction {
  const dynamic = { ...fields, gasPrice: undefined, chainId: common.chainId(), accessList, maxFeePerGas: request.gasPrice, maxPriorityFeePerGas: request.gasPrice };
  const auths = request.authorizations ?? [];
  if (auths.length > 0 && common.isActivatedEIP(7702)) return createEOACode7702Tx({ ...dynamic, authorizationList: auths.map(authorizationTuple) }, opts);
  if (request.blobHashes !== undefined && request.to !== undefined && common.isActivatedEIP(4844)) {
    return createBlob4844Tx({ ...dynamic, blobVersionedHashes: request.blobHashes.map((h) => bytesToHex(h)), maxFeePerBlobGas: request.blobFeeCap ?? 0n }, opts);
  }
  if (accessList.length > 0 && common.isActivatedEIP(2930)) return createAccessList2930Tx({ ...fields, chainId: common.chainId(), accessList }, opts);
  return createLegacyTx(fields, opts);
}

/**
 * Runs `calls` one after another on the state at `root`, the state after `block` (each sees the ones before, as
 * trace_callMany wants) with the recorder attached. The caller serialises this with every other
 * use of `vm` (it changes the VM's state; the next replay starts from a stored root).
 */
export async function recordCalls(
  vm: VM, recorder: Recorder, block: Block, root: Uint8Array | undefined, request: TracedCalls, withState: boolean, steps?: StepSink,
): Promise<TxRecording[]> {
  const state = vm.stateManager;
  // no root: the state manager is set on the block already (upstream mode's lazy reads)
  if (root !== undefined) await state.setStateRoot(root);
  const knownRoot = root ?? block.header.stateRoot;
  const context = request.blockOverrides === undefined ? block : applyBlockOverrides(block, request.blockOverrides);
  vm.common.setHardforkBy({ blockNumber: context.header.number, timestamp: context.header.timestamp });
  if (request.stateOverrides !== undefined) await applyStateOverrides(state, request.stateOverrides);
  const getStateRoot = state.getStateRoot;
  // pre-Byzantium receipts carry a state root; nothing of the call's state is kept, so skip hashing it
  state.getStateRoot = async () => knownRoot;
  // the calls run inside a checkpoint that is reverted: their last commit is not a flush, so nothing
  // of them is written into the database the replay's state lives in
  await state.checkpoint();
  // a sink sees the steps as they run: the KZG setup is loaded before (recordings.ts recordRun)
  if (steps !== undefined) await preloadKzg();
  recorder.start(context, withState, steps);
  let txs: TxRecording[];
  try {
    for (const call of request.calls) {
      const intrinsic = intrinsicGas(context, call);
      if (call.gas < intrinsic) throw new CallRejectedError('intrinsicGas', `intrinsic gas too low: have ${call.gas}, want ${intrinsic}`);
      const from = new Address(call.from);
      const account = (await state.getAccount(from)) ?? createAccount({});
      const cost = call.gas * call.gasPrice + call.value;
      if (account.balance < cost) {
        throw new CallRejectedError('funds', `insufficient funds for gas * price + value: address ${from.toString()} have ${account.balance} want ${cost}`);
      }
      const run = callBlock(context, call.gasPrice, call.blobHashes !== undefined && (call.blobFeeCap ?? 0n) === 0n);
      await runTx(vm, {
        tx: unsignedTx(run, call, account.nonce),
        block: run,
        skipNonce: true,
        skipBlockGasLimitValidation: true,
        skipHardForkValidation: true,
        reportPreimages: false,
      });
    }
  } catch (error) {
    // a stopped run leaves its messages' checkpoints open: back to the calls' own
    await unwind(vm, 1);
    throw error;
  } finally {
    state.getStateRoot = getStateRoot;
    txs = recorder.finish();
    await state.revert();
  }
  return txs;
}
