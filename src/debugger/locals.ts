// A step's local variables, where the build's ethdebug program locates them (ethdebug.ts): the
// variables of the context that holds before the step runs, which is the context of the instruction
// its frame ran last (the program's own context at a frame's first step), read from the step's stack
// and memory. Anywhere else they are said to be not recoverable, with the reason.
import type { DebugTrace } from './debugTrace.ts';
import { type LocalValue, type MachineState, readLocal } from './ethdebug.ts';

export type Locals = { readonly values: readonly LocalValue[] } | { readonly note: string };

export const NO_ETHDEBUG = 'not recoverable: the build has no ethdebug output (solc with viaIR, settings.experimental and debug.debugInfo ["ethdebug"])';

/** The locals at step `i`; `state` is the step's stack (top first) and memory, when they were loaded. */
export function localsAt(trace: DebugTrace, i: number, state: MachineState | undefined): Locals {
  const { steps } = trace;
  const frame = steps.frame[i]!;
  const source = trace.frames.get(frame)?.source;
  if (source === undefined) return { note: 'not recoverable: no source map fits this code' };
  const program = source.compiled.ethdebug;
  if (program === undefined) return { note: NO_ETHDEBUG };
  let last = i - 1;
  while (last >= 0 && steps.frame[last] !== frame) last--;
  // none before `i`: the frame's first step, where the program's own context holds
  const variables = last < 0 ? program.before : (program.after.get(steps.pc[last]!) ?? []);
  if (variables.length === 0) return { note: 'not recoverable: the build\'s ethdebug output locates no variable at this step' };
  if (state === undefined) return { note: 'the step\'s stack and memory are not loaded' };
  return { values: variables.map((v) => readLocal(v, state)) };
}
