// Parity `stateDiff` and the TraceResults around it, as reth and anvil write them:
// revm-inspectors src/tracing/builder/parity.rs (into_trace_type_traces, populate_state_diff),
// serialised by alloy rpc-types-trace parity.rs (StateDiff, AccountDiff, Delta, TraceResults).
// Pure function of the recording (the state log of trace/types.ts); accounts are rendered as they
// are written (encoding/lazyJson.ts).
import type { RenderedJson } from '../../encoding/boundedJson.ts';
import { hexBytes, hexQuantity, hexWord } from '../../encoding/hex.ts';
import { type LazyArray, LazyObject } from '../../encoding/lazyJson.ts';
import type { AccountState, CallFrame, TouchedAccount, TxRecording } from '../types.ts';
import { renderTransactionTraces, type TransactionTraceJson } from './parity.ts';

/** alloy Delta: `=` unchanged, `{"+": v}` added, `{"*": {from, to}}` changed (reth never writes `-`). */
export type DeltaJson = '=' | { '+': string } | { '*': { from: string; to: string } };

export interface AccountDiffJson {
  balance: DeltaJson;
  code: DeltaJson;
  nonce: DeltaJson;
  storage: Record<string, DeltaJson>;
}

/** The trace types a request names (alloy TraceType). */
export interface TraceTypes {
  readonly trace: boolean;
  readonly stateDiff: boolean;
  /** Asked for: the transaction must run with the vmTrace step tracer (vmTrace.ts). */
  readonly vmTrace: boolean;
}

/** alloy TraceResults; `transactionHash` only for trace_replayBlockTransactions. */
export interface TraceResultsJson {
  output: string;
  stateDiff: LazyObject<AccountDiffJson> | null;
  trace: LazyArray<TransactionTraceJson> | [];
  vmTrace: RenderedJson | null;
  transactionHash?: string;
}

function changed(from: string, to: string): DeltaJson {
  return from === to ? '=' : { '*': { from, to } };
}

function failedAbove(frames: readonly CallFrame[], frame: CallFrame): boolean {
  for (let f: CallFrame | undefined = frame; f !== undefined; f = f.parent >= 0 ? frames[f.parent] : undefined) {
    if (f.failure !== undefined) return true;
  }
  return false;
}

/**
 * What revm's journal says at transaction end, which the state log (go-ethereum's view: every
 * CREATE and SELFDESTRUCT that passed its gas checks) does not: the accounts created by a creation
 * that succeeded and was not undone by a failing ancestor (Account::is_created), and the accounts
 * destroyed (is_selfdestructed; under EIP-6780 only those created in the same transaction).
 */
function journalOutcome(tx: TxRecording): { created: Set<string>; destroyed: Set<string> } {
  const created = new Set<string>();
  const destroyed = new Set<string>();
  for (const frame of tx.frames) {
    if ((frame.kind === 'CREATE' || frame.kind === 'CREATE2') && frame.to !== undefined && !failedAbove(tx.frames, frame)) {
      created.add(hexBytes(frame.to).slice(2));
    }
  }
  for (const frame of tx.frames) {
    if (frame.kind !== 'SELFDESTRUCT' || failedAbove(tx.frames, frame)) continue;
    const self = hexBytes(frame.from).slice(2);
    if (!tx.state.eip6780 || created.has(self)) destroyed.add(self);
  }
  return { created, destroyed };
}

/** revm AccountInfo equality; a missing account reads as the default (codeless) one. */
function sameInfo(a: AccountState, b: AccountState): boolean {
  const hash = (s: AccountState): string => (s.code.length === 0 ? '' : hexBytes(s.codeHash));
  return a.balance === b.balance && a.nonce === b.nonce && hash(a) === hash(b);
}

function changedSlots(account: TouchedAccount): [string, bigint, bigint][] {
  const out: [string, bigint, bigint][] = [];
  for (const [slot, pre] of account.preStorage) {
    const post = account.postStorage.get(slot) ?? pre;
    if (post !== pre) out.push([slot, pre, post]);
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** populate_state_diff over the accounts the transaction touched, keyed and sorted by address. */
export function renderStateDiff(tx: TxRecording): LazyObject<AccountDiffJson> {
  return new LazyObject(() => accountDiffs(tx));
}

function* accountDiffs(tx: TxRecording): Generator<[string, AccountDiffJson]> {
  const { created, destroyed } = journalOutcome(tx);
  const keys = [...tx.state.accounts.keys()].sort();
  for (const key of keys) {
    const account = tx.state.accounts.get(key)!;
    const isCreated = created.has(key);
    const isDestroyed = destroyed.has(key);
    // created and destroyed in the same transaction: left out
    if (isCreated && isDestroyed) continue;
    const pre = account.pre;
    // revm keeps a destroyed account's nonce and code in its journal and zeroes its balance; the
    // state log reads it after the deletion. Its slots are left out: revm would show the values
    // last written, which the deleted account no longer has.
    const post: AccountState = isDestroyed ? { ...pre, balance: 0n } : (account.post ?? pre);
    const slots = isDestroyed ? [] : changedSlots(account);
    const storage: Record<string, DeltaJson> = {};
    if (isCreated && pre.balance === 0n) {
      for (const [slot, , value] of slots) storage['0x' + slot] = { '+': hexWord(value) };
      yield ['0x' + key, {
        balance: { '+': hexQuantity(post.balance) },
        code: { '+': hexBytes(post.code) },
        nonce: { '+': hexQuantity(post.nonce) },
        storage,
      }];
      continue;
    }
    for (const [slot, from, to] of slots) storage['0x' + slot] = { '*': { from: hexWord(from), to: hexWord(to) } };
    if (slots.length === 0 && sameInfo(pre, post) && !isDestroyed) continue;
    yield ['0x' + key, {
      balance: changed(hexQuantity(pre.balance), hexQuantity(post.balance)),
      code: isCreated ? changed(hexBytes(pre.code), hexBytes(post.code)) : '=',
      nonce: changed(hexQuantity(pre.nonce), hexQuantity(post.nonce)),
      storage,
    }];
  }
}

/** revm ExecutionResult::output: the return or revert data; nothing for a halt. */
function txOutput(tx: TxRecording): string {
  const root = tx.frames[0];
  if (root === undefined) return '0x';
  if (root.failure !== undefined && root.failure.kind !== 'reverted') return '0x';
  return hexBytes(root.output);
}

/**
 * into_trace_results_with_state: `trace` is [] and `stateDiff` and `vmTrace` null when not asked for;
 * `vmTrace` is the text the vmTrace step tracer wrote while the transaction ran.
 */
export function renderTraceResults(tx: TxRecording, types: TraceTypes, vmTrace?: RenderedJson): TraceResultsJson {
  return {
    output: txOutput(tx),
    stateDiff: types.stateDiff ? renderStateDiff(tx) : null,
    trace: types.trace ? renderTransactionTraces(tx) : [],
    vmTrace: vmTrace ?? null,
  };
}
