// The depth-first walk that flattens a call tree into Parity-style traces, shared by trace_* (reth's
// parity.rs) and go-ethereum's flatCallTracer (call_flat.go flatFromNested): parent before children,
// each with its traceAddress and the children that count (a caller may leave precompile calls out).
import type { CallFrame, TxRecording } from '../types.ts';

export interface FlatStep {
  readonly index: number;
  readonly traceAddress: number[];
  /** The frame's children that are traces (its `subtraces`). */
  readonly children: readonly number[];
}

export function* walkFlat(tx: TxRecording, childrenOf: (frame: CallFrame) => readonly number[]): Generator<FlatStep> {
  if (tx.frames.length === 0) return;
  const todo: [number, number[]][] = [[0, []]];
  while (todo.length > 0) {
    const [index, traceAddress] = todo.pop()!;
    const children = childrenOf(tx.frames[index]!);
    yield { index, traceAddress, children };
    for (let i = children.length - 1; i >= 0; i--) todo.push([children[i]!, [...traceAddress, i]]);
  }
}
