// Parity-style flat traces (trace_block / trace_transaction) as reth and anvil write them:
// revm-inspectors src/tracing/builder/parity.rs and types.rs, serialised by alloy
// rpc-types-trace parity.rs (LocalizedTransactionTrace). Pure function of the arena; the traces are
// rendered one at a time as they are written (encoding/lazyJson.ts).
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { LazyArray } from '../../encoding/lazyJson.ts';
import { sameBytes } from '../bytes.ts';
import type { BlockRecording, CallFrame, TxRecording } from '../types.ts';
import { parityError } from './errorStrings.ts';
import { walkFlat } from './flatWalk.ts';

export interface CallActionJson {
  from: string;
  callType: string;
  gas: string;
  input: string;
  to: string;
  value: string;
}
export interface CreateActionJson {
  from: string;
  gas: string;
  init: string;
  value: string;
  creationMethod: string;
}
export interface SuicideActionJson {
  address: string;
  balance: string;
  refundAddress: string;
}
export interface RewardActionJson {
  author: string;
  rewardType: string;
  value: string;
}
export type ParityResultJson =
  | { gasUsed: string; output: string }
  | { address: string; code: string; gasUsed: string }
  | null;

/** One trace, keys in alloy's LocalizedTransactionTrace order; `error` only when set. */
export interface ParityTraceJson {
  action: CallActionJson | CreateActionJson | SuicideActionJson | RewardActionJson;
  blockHash: string;
  blockNumber: number;
  error?: string;
  result: ParityResultJson;
  subtraces: number;
  traceAddress: number[];
  transactionHash?: string;
  transactionPosition?: number;
  type: 'call' | 'create' | 'suicide' | 'reward';
}

const ZERO_ADDRESS = '0x' + '0'.repeat(40);

/**
 * revm calls the inspector's selfdestruct hook only when the opcode leaves a journal entry
 * (revm inspector/src/handler.rs inspect_selfdestruct). Under EIP-6780 a pre-existing contract
 * that names itself as beneficiary leaves none, and revm-inspectors types.rs
 * parity_selfdestruct_action then defaults every field to zero.
 */
export function suicideAction(tx: TxRecording, frame: CallFrame): SuicideActionJson {
  const beneficiary = frame.to ?? new Uint8Array(20);
  const selfKey = hexBytes(frame.from).slice(2);
  if (tx.state.eip6780 && sameBytes(frame.from, beneficiary) && !tx.state.created.has(selfKey)) {
    return { address: ZERO_ADDRESS, balance: '0x0', refundAddress: ZERO_ADDRESS };
  }
  return { address: hexBytes(frame.from), balance: hexQuantity(frame.value), refundAddress: hexBytes(beneficiary) };
}

/** types.rs parity_transaction_trace: a frame keeps its result when it succeeded or reverted, not when it halted. */
export function keepsResult(frame: CallFrame): boolean {
  return frame.failure === undefined || frame.failure.kind === 'reverted';
}

/** The address a create trace's result names: the one computed when the creation began. */
/** The address a frame calls (the zero address where it has none). */
export function calleeAddress(frame: CallFrame): string {
  return frame.to ? hexBytes(frame.to) : ZERO_ADDRESS;
}

export function createdAddress(frame: CallFrame): string {
  const address = frame.createAddress ?? frame.to;
  return address ? hexBytes(address) : ZERO_ADDRESS;
}

/** One trace of a transaction without its place in the chain (alloy TransactionTrace): `type` first. */
export interface TransactionTraceJson {
  type: ParityTraceJson['type'];
  action: ParityTraceJson['action'];
  error?: string;
  result: ParityResultJson;
  subtraces: number;
  traceAddress: number[];
}

/**
 * Where a trace sits: reth's TransactionInfo, or none (trace_call, trace_replay*). Without a place
 * the traces are those of TracingInspectorConfig::from_parity_config (revm-inspectors config.rs):
 * `exclude_precompile_calls`, so a call into a precompile without value is no trace and no subtrace
 * of its caller (mod.rs is_precompile_call: `self.is_deep() && value.is_zero()`; one that moves
 * value stays). anvil's trace_block and trace_transaction record with precompile calls, and so
 * does blocktrace.
 */
interface Place {
  readonly block: BlockRecording | undefined;
  readonly tx: TxRecording;
}

function childrenOf(p: Place, frame: CallFrame): number[] {
  if (p.block !== undefined) return frame.children;
  return frame.children.filter((child) => !p.tx.frames[child]!.precompile || p.tx.frames[child]!.value !== 0n);
}

function renderFrame(p: Place, index: number, traceAddress: number[], children: readonly number[]): ParityTraceJson | TransactionTraceJson {
  const { tx } = p;
  const frame = tx.frames[index]!;
  const top = index === 0;
  const failure = frame.failure;
  // Top level: the gas left after intrinsic gas, and execution gas before refunds.
  const gas = hexQuantity(top ? tx.gasLimit - tx.intrinsicGas : frame.gas);
  const gasUsed = hexQuantity(top ? tx.gasUsedBeforeRefund - tx.intrinsicGas : frame.gasUsed);
  const keepResult = keepsResult(frame);
  let action: ParityTraceJson['action'];
  let result: ParityResultJson = null;
  let type: ParityTraceJson['type'];
  if (frame.kind === 'SELFDESTRUCT') {
    action = suicideAction(tx, frame);
    type = 'suicide';
  } else if (frame.kind === 'CREATE' || frame.kind === 'CREATE2') {
    action = {
      from: hexBytes(frame.from),
      gas,
      init: hexBytes(frame.input),
      value: hexQuantity(frame.value),
      creationMethod: frame.kind.toLowerCase(),
    };
    if (keepResult) result = { address: createdAddress(frame), code: hexBytes(frame.output), gasUsed };
    type = 'create';
  } else {
    action = {
      from: hexBytes(frame.from),
      callType: frame.kind.toLowerCase(),
      gas,
      input: hexBytes(frame.input),
      to: calleeAddress(frame),
      value: hexQuantity(frame.value),
    };
    if (keepResult) result = { gasUsed, output: hexBytes(frame.output) };
    type = 'call';
  }
  const error = failure !== undefined && frame.kind !== 'SELFDESTRUCT' ? parityError(failure) : undefined;
  if (p.block === undefined) {
    const trace: TransactionTraceJson = { type, action } as TransactionTraceJson;
    if (error !== undefined) trace.error = error;
    trace.result = result;
    trace.subtraces = children.length;
    trace.traceAddress = traceAddress;
    return trace;
  }
  const trace: ParityTraceJson = {
    action,
    blockHash: hexBytes(p.block.hash),
    blockNumber: Number(p.block.number),
  } as ParityTraceJson;
  if (error !== undefined) trace.error = error;
  trace.result = result;
  trace.subtraces = children.length;
  trace.traceAddress = traceAddress;
  trace.transactionHash = hexBytes(tx.txHash);
  trace.transactionPosition = tx.txIndex;
  trace.type = type;
  return trace;
}

/**
 * Every frame's trace, depth first, parent before children. A SELFDESTRUCT is always its frame's
 * last child, which is where parity.rs appends the suicide trace.
 */
function* frameTraces<T extends ParityTraceJson | TransactionTraceJson>(p: Place): Generator<T> {
  for (const step of walkFlat(p.tx, (frame) => childrenOf(p, frame))) yield renderFrame(p, step.index, step.traceAddress, step.children) as T;
}

/** The traces of one transaction (trace_transaction), in reth's order. */
export function renderParityTx(block: BlockRecording, txIndex: number): LazyArray<ParityTraceJson> {
  const tx = block.txs[txIndex];
  return new LazyArray(() => (tx === undefined ? [] : frameTraces<ParityTraceJson>({ block, tx })));
}

/** One transaction's traces without block and transaction fields (trace_replay*, trace_call). */
export function renderTransactionTraces(tx: TxRecording): LazyArray<TransactionTraceJson> {
  return new LazyArray(() => frameTraces<TransactionTraceJson>({ block: undefined, tx }));
}

/** All traces of a block (trace_block): transactions in order, then the reward traces. */
export function renderParityBlock(block: BlockRecording): LazyArray<ParityTraceJson> {
  return new LazyArray(() => blockTraces(block));
}

function* blockTraces(block: BlockRecording): Generator<ParityTraceJson> {
  for (const tx of block.txs) yield* frameTraces<ParityTraceJson>({ block, tx });
  for (const reward of block.rewards) {
    // alloy RewardAction::into_localized_trace: no transactionHash / transactionPosition.
    yield {
      action: { author: hexBytes(reward.author), rewardType: reward.kind, value: hexQuantity(reward.value) },
      blockHash: hexBytes(block.hash),
      blockNumber: Number(block.number),
      result: null,
      subtraces: 0,
      traceAddress: [],
      type: 'reward',
    };
  }
}
