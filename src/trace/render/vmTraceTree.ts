// How reth puts a Parity vmTrace together once a transaction has run: revm-inspectors
// src/tracing/builder/parity.rs `make_vm_trace` and `populate_vm_trace_bytecodes`, over the ops each
// frame wrote (vmTrace.ts). Both walks are reproduced as they are, quirks included:
// - `make_vm_trace` builds the frames children first and hands finished ones to their callers
//   through ONE first-in-first-out queue for the whole transaction, each CALL/CREATE-family op taking
//   the queue's front. A frame whose callers' earlier siblings are still queued therefore takes one
//   of theirs: in cancun-devnet 0x0f0ea2…, the first CALL shows the STATICCALL's callee (anvil 1.7.1
//   answers the same bytes);
// - a frame whose first op is STOP, when the last frame's last op is STOP too, leaves the whole trace
//   without ops ("a single STOP which is optimised away");
// - `code` is read before the transaction, for the frames in breadth-first order of the call tree,
//   given to the traces in breadth-first order of the tree just built.
import { hexBytes } from '../../encoding/hex.ts';
import type { CallFrame, TxRecording } from '../types.ts';

const STOP = 0x00;

/** What one frame's ops left: its text around the places where a sub-trace goes. */
export interface FrameOps {
  /** The text between the sub-trace places (one more than `holes`), each as its pieces. */
  readonly segments: readonly (readonly string[])[];
  /** CALL/CREATE-family ops written (each leaves a place for a sub-trace). */
  readonly holes: number;
  /** First and last opcode written; -1 when none. */
  readonly firstOp: number;
  readonly lastOp: number;
}

const NO_OPS: FrameOps = { segments: [[]], holes: 0, firstOp: -1, lastOp: -1 };

/**
 * revm-inspectors keeps a node per call but none for a call into a precompile without value below
 * the top one (config.rs from_parity_config sets exclude_precompile_calls; mod.rs is_precompile_call)
 * nor for a SELFDESTRUCT (a mark on its frame).
 */
function isNode(frame: CallFrame): boolean {
  if (frame.kind === 'SELFDESTRUCT') return false;
  return !(frame.precompile && frame.parent >= 0 && frame.value === 0n);
}

/** The account a node names: the callee (the code's for DELEGATECALL/CALLCODE) or the created one. */
function nodeAddress(frame: CallFrame): Uint8Array | undefined {
  return frame.createAddress ?? frame.to;
}

/**
 * The whole vmTrace text as pieces, `{"code":…,"ops":[…]}` with each sub-trace placed, and the length
 * of the text it added to the ops' own. `ops` maps a frame index to what its ops wrote (frames
 * without ops have none).
 */
export function assembleVmTrace(tx: TxRecording, ops: ReadonlyMap<number, FrameOps>): { parts: string[]; added: number } {
  const frames = tx.frames;
  const root = frames[0];
  if (root === undefined) return framing(['{"code":"0x","ops":[]}']);
  const textOf = (index: number): FrameOps => ops.get(index) ?? NO_OPS;
  const children = (frame: CallFrame): number[] => frame.children.filter((c) => isNode(frames[c]!));
  const nodes = frames.filter(isNode);
  const last = nodes[nodes.length - 1];
  const lastStops = last !== undefined && textOf(last.index).lastOp === STOP;

  // make_vm_trace: children first, every call-like op taking the queue's front (or nothing)
  const subs = new Map<number, (number | null)[]>();
  const queue: number[] = [];
  let emptied = false;
  const build = (index: number): void => {
    for (const child of children(frames[index]!)) {
      build(child);
      if (emptied) return;
    }
    const text = textOf(index);
    if (text.firstOp === STOP && lastStops) {
      emptied = true;
      return;
    }
    const taken: (number | null)[] = [];
    for (let i = 0; i < text.holes; i++) taken.push(queue.shift() ?? null);
    subs.set(index, taken);
    if (index !== 0) queue.push(index);
  };
  build(0);

  // populate_vm_trace_bytecodes: the traces breadth first, zipped with the nodes breadth first
  const codes = new Map<number, string>();
  const addresses: (Uint8Array | undefined)[] = [];
  for (let wave = [0]; wave.length > 0; wave = wave.flatMap((i) => children(frames[i]!))) {
    for (const i of wave) addresses.push(nodeAddress(frames[i]!));
  }
  let next = 0;
  for (let wave = [0]; wave.length > 0; wave = emptied ? [] : wave.flatMap((i) => (subs.get(i) ?? []).filter((s) => s !== null))) {
    for (const i of wave) codes.set(i, codeBefore(tx, addresses[next++]));
  }

  if (emptied) return framing([`{"code":"${codes.get(0)!}","ops":[]}`]);
  const parts: string[] = [];
  let added = 0;
  const frame = (text: string): void => {
    parts.push(text);
    added += text.length;
  };
  const write = (index: number): void => {
    const text = textOf(index);
    const taken = subs.get(index) ?? [];
    frame(`{"code":"${codes.get(index)!}","ops":[`);
    text.segments.forEach((segment, k) => {
      for (const piece of segment) parts.push(piece);
      if (k >= text.holes) return;
      const sub = taken[k];
      if (sub === null || sub === undefined) frame('null');
      else write(sub);
    });
    frame(']}');
  };
  write(0);
  return { parts, added };
}

const framing = (parts: string[]): { parts: string[]; added: number } => ({ parts, added: parts.join('').length });

/** The account's code before the transaction (the state log's first look at it); `0x` for none. */
function codeBefore(tx: TxRecording, address: Uint8Array | undefined): string {
  if (address === undefined) return '0x';
  const account = tx.state.accounts.get(hexBytes(address).slice(2));
  return hexBytes(account?.pre.code ?? new Uint8Array());
}
