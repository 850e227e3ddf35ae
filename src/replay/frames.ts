// Building blocks of the call arena the recorder fills (trace/types.ts CallFrame).
import type { EVMResult } from '@ethereumjs/evm';
import type { CallFrame, CallKind, RecordedLog } from '../trace/types.ts';
import { type KeptInput, NO_INPUT, withInput } from '../trace/inputPatches.ts';

/** A frame; an input kept as a patch (callInputs.ts) is rebuilt each time `input` is read. */
export function newFrame(
  index: number, parent: number, depth: number, kind: CallKind, from: Uint8Array, to: Uint8Array | undefined,
  value: bigint, gas: bigint, input: KeptInput,
): CallFrame & { precompile: boolean } {
  const frame = {
    index, parent, depth, kind, from, to, value, gas, gasUsed: 0n, input: NO_INPUT,
    output: new Uint8Array(), failure: undefined, precompile: false, children: [], logs: [],
  };
  return withInput(frame, input);
}

/** Logs of failed frames and of everything below them (go-ethereum clears them at tx end). */
export function failedLogs(frames: CallFrame[]): RecordedLog[] {
  const out: RecordedLog[] = [];
  const failed = new Array<boolean>(frames.length).fill(false);
  for (const f of frames) {
    failed[f.index] = f.failure !== undefined || (f.parent >= 0 && failed[f.parent]!);
    if (failed[f.index]) out.push(...f.logs);
  }
  return out;
}

/** The code a constructor returned, kept by the interpreter even when depositing it failed. */
export function returnedCode(exec: EVMResult['execResult']): Uint8Array | undefined {
  return (exec as { runState?: { returnValue?: Uint8Array } }).runState?.returnValue;
}
