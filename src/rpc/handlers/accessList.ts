// eth_createAccessList as go-ethereum v1.17.5 answers it (internal/ethapi/api.go CreateAccessList,
// AccessList): the message, with fee and nonce defaults filled, runs over eth_call's execution
// (replay/callExec.ts) again and again with the list the previous run touched, until a run touches
// exactly that list; the answer is that list, the run's gas used and its failure, if any.
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToUnprefixedHex, generateAddress, toChecksumAddress } from '@ethereumjs/util';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import { ACCESS_LIST_OPCODES, AccessListTracker, activePrecompiles } from '../../replay/accessList.ts';
import type { AccessTuple, CallRequest } from '../../replay/message.ts';
import type { ChainBlock } from '../../replay/chainView.ts';
import { loadKeccak } from '../../replay/keccak.ts';
import type { StateOverrides } from '../../replay/overrides.ts';
import { gethError } from '../../trace/render/errorStrings.ts';
import { callRequest, RPC_GAS_CAP, type CallArgs } from '../callParams.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import { headerAt } from './blockReads.ts';
import { suggestTipCap } from './fees.ts';

/** internal/ethapi/api.go accessListResult: `error` only when the message failed. */
export interface AccessListResult {
  readonly accessList: { readonly address: string; readonly storageKeys: readonly string[] }[];
  readonly error?: string;
  readonly gasUsed: string;
}

export async function ethCreateAccessList(
  [args, at, stateOverrides]: [CallArgs, BlockNumberOrHash | undefined, StateOverrides | undefined],
  ctx: RpcContext,
): Promise<AccessListResult> {
  const block = headerAt(ctx.chain, at);
  const call = ctx.chain.call;
  if (call === undefined || ctx.chain.stateAfter === undefined) throw new ServerError('calls are not available here');
  const header = block.block.header;
  const from = args.from ?? new Uint8Array(20);
  let fees = feeDefaults(args, block, () => suggestTipCap(ctx.chain));
  // CallDefaults and ToMessage without a base fee: the legacy price alone, 0 when unset
  if (header.baseFeePerGas === undefined && fees.gasPrice === undefined) fees = { gasPrice: 0n };
  // the nonce from the state, overrides applied (AccessList)
  const nonce = args.nonce ?? stateOverrides?.get(bytesToUnprefixedHex(from))?.nonce ?? (await (await ctx.chain.stateAfter(block)).nonce(from));
  const defaulted: CallArgs = { ...args, ...fees, from, gas: args.gas === undefined || args.gas > RPC_GAS_CAP ? RPC_GAS_CAP : args.gas };
  const base = callRequest(defaulted, header.baseFeePerGas, undefined, ctx.chain.chainId);
  const feeCap = fees.gasPrice ?? fees.maxFeePerGas ?? 0n;
  const tip = fees.gasPrice ?? fees.maxPriorityFeePerGas ?? 0n;
  const message = { ...base, feeCap } satisfies CallRequest;

  // from, to (or the address a creation gets from the nonce given) and the precompiles are left out
  const to = args.to ?? generateAddress(from, bigIntToUnpaddedBytes(nonce));
  const exclude = new Set([bytesToUnprefixedHex(from), bytesToUnprefixedHex(to), ...activePrecompiles(block.block.common)]);
  const failure = async (list: readonly AccessTuple[], reason: string): Promise<ServerError> =>
    new ServerError(`failed to apply transaction: ${await txHash(block, defaulted, message, nonce, list)} err: ${reason}`);

  let previous = new AccessListTracker(args.accessList ?? [], exclude);
  const started = Date.now();
  for (;;) {
    // AccessList checks ctx.Err() before each run: a list that keeps changing ends at the deadline
    if (ctx.traceTimeoutMs > 0 && Date.now() - started > ctx.traceTimeoutMs) throw new ServerError('context deadline exceeded');
    const list = previous.accessList();
    const tracker = new AccessListTracker(list, exclude);
    const request: CallRequest = { ...message, accessList: list };
    // core/state_transition.go preCheck: the fee caps, unless all zero (NoBaseFee); the base fee is 0 for a free message
    if (block.block.common.gteHardfork('london') && (feeCap !== 0n || tip !== 0n)) {
      const sender = toChecksumAddress(hexBytes(from));
      if (feeCap < tip) throw await failure(list, `max priority fee per gas higher than max fee per gas: address ${sender}, maxPriorityFeePerGas: ${tip}, maxFeePerGas: ${feeCap}`);
      const baseFee = base.gasPrice === 0n ? 0n : (header.baseFeePerGas ?? 0n);
      if (feeCap < baseFee) throw await failure(list, `max fee per gas less than block base fee: address ${sender}, maxFeePerGas: ${feeCap}, baseFee: ${baseFee}`);
    }
    const outcome = await call(block, request, { state: stateOverrides }, { opcodes: ACCESS_LIST_OPCODES, reached: tracker.reached });
    if (outcome.kind === 'rejected') throw await failure(list, outcome.message);
    if (tracker.equals(previous)) {
      const accessList = list.map((t) => ({ address: hexBytes(t.address), storageKeys: t.storageKeys.map(hexBytes) }));
      const gasUsed = hexQuantity(outcome.usedGas);
      if (outcome.kind === 'ok') return { accessList, gasUsed };
      return { accessList, error: outcome.kind === 'reverted' ? 'execution reverted' : gethError(outcome.failure), gasUsed };
    }
    previous = tracker;
  }
}

interface Fees {
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
}

/** internal/ethapi/transaction_args.go setFeeDefaults: what is missing of the fees, from the tip oracle. */
function feeDefaults(args: CallArgs, block: ChainBlock, suggestedTip: () => bigint): Fees {
  const { gasPrice, maxFeePerGas, maxPriorityFeePerGas } = args;
  if (gasPrice === undefined && maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined) {
    if (maxFeePerGas === 0n) throw new ServerError('maxFeePerGas must be non-zero');
    if (maxFeePerGas < maxPriorityFeePerGas) throw new ServerError(`maxFeePerGas (${hexQuantity(maxFeePerGas)}) < maxPriorityFeePerGas (${hexQuantity(maxPriorityFeePerGas)})`);
    return { maxFeePerGas, maxPriorityFeePerGas };
  }
  const london = block.block.common.gteHardfork('london');
  if (gasPrice !== undefined) {
    if (gasPrice === 0n && london) throw new ServerError('gasPrice must be non-zero after london fork');
    return { gasPrice };
  }
  if (!london) {
    if (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined) throw new ServerError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active');
    return { gasPrice: suggestedTip() };
  }
  const tip = maxPriorityFeePerGas ?? suggestedTip();
  // twice the block's base fee, for slack
  const cap = maxFeePerGas ?? tip + 2n * (block.block.header.baseFeePerGas ?? 0n);
  if (cap < tip) throw new ServerError(`maxFeePerGas (${hexQuantity(cap)}) < maxPriorityFeePerGas (${hexQuantity(tip)})`);
  return { maxFeePerGas: cap, maxPriorityFeePerGas: tip };
}

/**
 * The hash go-ethereum names in a failure: args.ToTransaction(types.LegacyTxType), unsigned (V, R,
 * S zero): legacy when a gas price is set, else an EIP-1559 transaction carrying the access list.
 */
async function txHash(block: ChainBlock, args: CallArgs, message: CallRequest, nonce: bigint, list: readonly AccessTuple[]): Promise<string> {
  const n = bigIntToUnpaddedBytes;
  const to = message.to ?? new Uint8Array();
  const keccak = await loadKeccak();
  if (args.gasPrice !== undefined || args.maxFeePerGas === undefined) {
    const fields = [n(nonce), n(args.gasPrice ?? 0n), n(message.gas), to, n(message.value), message.data, n(0n), n(0n), n(0n)];
    return hexBytes(keccak(RLP.encode(fields)));
  }
  const fields = [
    n(block.block.common.chainId()), n(nonce), n(args.maxPriorityFeePerGas ?? 0n), n(args.maxFeePerGas), n(message.gas), to, n(message.value), message.data,
    list.map((t) => [t.address, [...t.storageKeys]]), n(0n), n(0n), n(0n),
  ];
  return hexBytes(keccak(Uint8Array.from([2, ...RLP.encode(fields)])));
}
