// The message of a call (eth_call, eth_estimateGas, debug_traceCall, eth_simulateV1 …): what it
// carries, its intrinsic gas and EIP-7623 floor (core/state_transition.go), and the block it runs in.
// Below both ways a message runs (callExec.ts: a bare EVM call; callTrace.ts: a transaction).
import { type Block, createBlock, createBlockHeader } from '@ethereumjs/block';
import { type Authorization, PER_AUTH_GAS } from './authorizations.ts';

/** One entry of an EIP-2930 access list. */
export interface AccessTuple {
  readonly address: Uint8Array;
  readonly storageKeys: readonly Uint8Array[];
}

/**
 * A call object before defaults (go-ethereum internal/ethapi/transaction_args.go TransactionArgs,
 * decoded): what eth_call, eth_estimateGas, debug_traceCall and eth_simulateV1 take.
 */
export interface TransactionArgs {
  readonly from: Uint8Array | undefined;
  readonly to: Uint8Array | undefined;
  readonly gas: bigint | undefined;
  readonly gasPrice: bigint | undefined;
  readonly maxFeePerGas?: bigint | undefined;
  readonly maxPriorityFeePerGas?: bigint | undefined;
  readonly value: bigint | undefined;
  readonly data: Uint8Array | undefined;
  readonly nonce?: bigint | undefined;
  readonly accessList?: readonly AccessTuple[] | undefined;
  readonly chainId?: bigint | undefined;
  /** EIP-4844 blob fields: the hashes BLOBHASH sees, and the blob fee cap. */
  readonly blobVersionedHashes?: readonly Uint8Array[] | undefined;
  readonly maxFeePerBlobGas?: bigint | undefined;
  /** EIP-7702 `authorizationList`. */
  readonly authorizations?: readonly Authorization[] | undefined;
}

export interface CallRequest {
  readonly from: Uint8Array;
  readonly to: Uint8Array | undefined;
  readonly gas: bigint;
  readonly gasPrice: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  /** The message's access list: charged in the intrinsic gas, its addresses and slots warm from the start. */
  readonly accessList?: readonly AccessTuple[] | undefined;
  /** The fee cap the sender's balance must cover (gas × cap + value); the gas price when absent. */
  readonly feeCap?: bigint | undefined;
  /** EIP-7702 authorizations, applied before the call as go-ethereum's state transition does. */
  readonly authorizations?: readonly Authorization[] | undefined;
  /** EIP-4844: the versioned hashes BLOBHASH reads, and the blob fee cap the balance must cover. */
  readonly blobHashes?: readonly Uint8Array[] | undefined;
  readonly blobFeeCap?: bigint | undefined;
}

/** core/state_transition.go IntrinsicGas. */
export function intrinsicGas(block: Block, request: CallRequest): bigint {
  const c = block.common;
  let gas = request.to === undefined && c.gteHardfork('homestead') ? 53000n : 21000n;
  const nonZero = c.gteHardfork('istanbul') ? 16n : 68n;
  for (const byte of request.data) gas += byte === 0 ? 4n : nonZero;
  if (request.to === undefined && c.isActivatedEIP(3860)) gas += 2n * BigInt(Math.ceil(request.data.length / 32));
  // params.TxAccessListAddressGas, TxAccessListStorageKeyGas: charged whatever the fork
  for (const tuple of request.accessList ?? []) gas += 2400n + 1900n * BigInt(tuple.storageKeys.length);
  gas += PER_AUTH_GAS * BigInt(request.authorizations?.length ?? 0);
  return gas;
}

/** core/state_transition.go FloorDataGas before Amsterdam (EIP-7623, from Prague): undefined before. */
export function floorDataGas(block: Block, request: CallRequest): bigint | undefined {
  if (!block.common.isActivatedEIP(7623)) return undefined;
  let tokens = 0n;
  for (const byte of request.data) tokens += byte === 0 ? 1n : 4n;
  return 21000n + 10n * tokens;
}

/**
 * The block a call runs in: the given header, its base fee lowered to 0 for a call without gas
 * price, and its blob base fee 0 for a call with blob hashes and no blob fee cap (core/vm/evm.go
 * NewEVM with NoBaseFee).
 */
export function callBlock(block: Block, gasPrice: bigint, zeroBlobFee = false): Block {
  const lowerBaseFee = gasPrice === 0n && block.header.baseFeePerGas !== undefined && block.header.baseFeePerGas !== 0n;
  if (!lowerBaseFee && !zeroBlobFee) return block;
  // the usual case (a call without gas price) is made once per block: the block is frozen, so it is shared
  if (!zeroBlobFee) {
    let lowered = loweredBaseFee.get(block);
    if (lowered === undefined) loweredBaseFee.set(block, (lowered = withCallFees(block, true, false)));
    return lowered;
  }
  return withCallFees(block, lowerBaseFee, zeroBlobFee);
}

/** Frozen copies of blocks with their base fee lowered to 0, by block. */
const loweredBaseFee = new WeakMap<Block, Block>();

function withCallFees(block: Block, lowerBaseFee: boolean, zeroBlobFee: boolean): Block {
  const opts = { common: block.common, skipConsensusFormatValidation: true, freeze: !zeroBlobFee };
  const header = createBlockHeader({ ...block.header.toJSON(), ...(lowerBaseFee ? { baseFeePerGas: 0n } : {}) }, opts);
  const run = createBlock({ header }, opts);
  if (zeroBlobFee) Object.defineProperty(run.header, 'getBlobGasPrice', { value: () => 0n });
  return run;
}
