// What one step shows, as data: the terminal UI draws it, the viewer receives it as JSON. Values
// stay bigint and bytes here; each face writes them its own way.
import { bytesToHex } from 'viem';
import { gethOpcodeName } from '../trace/render/errorStrings.ts';
import type { BuildContract } from './builds.ts';
import { functionsAt } from './callStack.ts';
import { codeAddress, type DebugTrace } from './debugTrace.ts';
import { type FrameValues, frameValues } from './frameValues.ts';
import { type Locals, localsAt } from './locals.ts';
import { stepSays } from './stepSays.ts';
import type { MemoryRange, StepDetail, StorageAccess } from './stepDetails.ts';

export interface StepView {
  readonly step: number;
  readonly total: number;
  readonly pc: number;
  readonly op: string;
  /** From 1, as go-ethereum's struct logs. */
  readonly depth: number;
  readonly gas: number;
  readonly gasCost: number;
  /** The account whose code runs. */
  readonly address: string | undefined;
  readonly contract: string | undefined;
  readonly source: { readonly file: string; readonly line: number; readonly column: number; readonly start: number; readonly length: number } | undefined;
  /** Why this step's frame has no source, if it has none. */
  readonly unmapped: string | undefined;
  readonly functions: readonly string[];
  /** The same call stack with the values of each frame's arguments (and return values as it returns). */
  readonly frames: readonly FrameValues[];
  /** The local variables the build's ethdebug output locates here, or why none are shown. */
  readonly locals: Locals;
  readonly detail: StepDetailView | undefined;
}

export interface StepDetailView {
  readonly stack: readonly bigint[];
  readonly memory: Uint8Array;
  readonly reads: MemoryRange | undefined;
  readonly writes: MemoryRange | undefined;
  readonly storage: (StorageAccess & { readonly name: string | undefined }) | undefined;
  /** The call, event, return value or error of the step, decoded (stepSays.ts). */
  readonly says: string | undefined;
}

/** The contract a step's code belongs to, when an artifact names it. */
export function contractAt(trace: DebugTrace, i: number): BuildContract | undefined {
  return trace.frames.get(trace.steps.frame[i]!)?.contract;
}

/** Step `i` as data; `detail` from a detail window holding it, when one was made. */
export function stepView(trace: DebugTrace, i: number, detail?: StepDetail, slotName?: (slot: bigint) => string | undefined): StepView {
  const { steps } = trace;
  const frame = trace.tx.frames[steps.frame[i]!];
  const address = frame === undefined ? undefined : codeAddress(frame);
  const where = trace.locations[steps.location[i]!];
  const debugFrame = trace.frames.get(steps.frame[i]!);
  return {
    step: i,
    total: steps.length,
    pc: steps.pc[i]!,
    op: gethOpcodeName(steps.op[i]!),
    depth: steps.depth[i]! + 1,
    gas: steps.gas[i]!,
    gasCost: steps.cost[i]!,
    address: address === undefined ? undefined : bytesToHex(address),
    contract: debugFrame?.contract?.name,
    source: where === undefined ? undefined : { file: where.file.path, line: where.line, column: where.column, start: where.start, length: where.length },
    unmapped: debugFrame?.unmapped,
    functions: functionsAt(trace, i),
    frames: frameValues(trace, i, detail?.stack),
    locals: localsAt(trace, i, detail),
    detail: detail === undefined ? undefined : {
      stack: detail.stack,
      memory: detail.memory,
      reads: detail.reads,
      writes: detail.writes,
      storage: detail.storage === undefined ? undefined : { ...detail.storage, name: slotName?.(detail.storage.slot) },
      says: stepSays(trace, i, detail),
    },
  };
}
