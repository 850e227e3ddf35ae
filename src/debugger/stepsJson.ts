// `blocktrace debug … --json`: the steps as one JSON document, `{"steps": [...]}`, one object per
// executed opcode in order (or those of `--from`/`--to`, or the first of each source line with
// `--only-lines`), written in pieces so a million steps are never one string. A step's number is
// its index among all the transaction's steps, from 0, whatever is left out.
import { hexBytes } from '../encoding/hex.ts';
import { gethOpcodeName } from '../trace/render/errorStrings.ts';
import { functionsAt } from './callStack.ts';
import { codeAddress, type DebugTrace, revertStep } from './debugTrace.ts';
import { frameValues } from './frameValues.ts';

export interface StepsSelection {
  /** First step, from 0. */
  readonly from?: number | undefined;
  /** Last step, included. */
  readonly to?: number | undefined;
  /** Only the first step of each run of steps on one source line of one frame (steps with no source are left out). */
  readonly onlyLines?: boolean | undefined;
  /** Each step also gives `frames`: its call stack with each frame's arguments. */
  readonly values?: boolean | undefined;
}

/** Calls `each` with the steps `selection` keeps, in order (a loop, not a generator: it runs over a million steps). */
export function forSelectedSteps(trace: DebugTrace, selection: StepsSelection, each: (step: number) => void): void {
  const { steps } = trace;
  const last = Math.min(selection.to ?? steps.length - 1, steps.length - 1);
  const first = Math.max(0, selection.from ?? 0);
  if (selection.onlyLines !== true) {
    for (let i = first; i <= last; i++) each(i);
    return;
  }
  let location = -1;
  let line = -1;
  let file: unknown;
  let frame = -1;
  for (let i = first; i <= last; i++) {
    const at = steps.location[i]!;
    // the same location in the same frame is the same line: no lookup
    if (at < 0 || (at === location && steps.frame[i] === frame)) continue;
    location = at;
    const where = trace.locations[at]!;
    if (where.line === line && where.file === file && steps.frame[i] === frame) continue;
    line = where.line;
    file = where.file;
    frame = steps.frame[i]!;
    each(i);
  }
}

const texts = new WeakMap<readonly string[], string>();
/** A call stack's JSON, written once per stack (functionsAt gives the same array for the same stack). */
function functionsJson(functions: readonly string[]): string {
  let text = texts.get(functions);
  if (text === undefined) texts.set(functions, (text = JSON.stringify(functions)));
  return text;
}

/** Per trace, the JSON of each frame's `"address"` and each location's `"source"` member, made once. */
const pieces = new WeakMap<DebugTrace, { readonly address: (string | undefined)[]; readonly source: (string | undefined)[] }>();

function piecesOf(trace: DebugTrace): { readonly address: (string | undefined)[]; readonly source: (string | undefined)[] } {
  let p = pieces.get(trace);
  if (p === undefined) pieces.set(trace, (p = { address: [], source: [] }));
  return p;
}

/** One step's object, keys in this order: step, pc, op, depth (from 1, as go-ethereum's struct logs), gas, gasCost, address, source, functions (and frames, with `values`). */
export function stepJson(trace: DebugTrace, i: number, values = false): string {
  const { steps } = trace;
  const made = piecesOf(trace);
  const f = steps.frame[i]!;
  let address = made.address[f];
  if (address === undefined) {
    const frame = trace.tx.frames[f];
    const at = frame === undefined ? undefined : codeAddress(frame);
    made.address[f] = address = at === undefined ? '' : `,"address":"${hexBytes(at)}"`;
  }
  let out = `{"step":${i},"pc":${steps.pc[i]},"op":"${gethOpcodeName(steps.op[i]!)}","depth":${steps.depth[i]! + 1},"gas":${steps.gas[i]},"gasCost":${steps.cost[i]}${address}`;
  const location = steps.location[i]!;
  if (location >= 0) {
    let source = made.source[location];
    if (source === undefined) {
      const where = trace.locations[location]!;
      made.source[location] = source = `,"source":{"file":${JSON.stringify(where.file.path)},"line":${where.line},"column":${where.column}}`;
    }
    out += source;
  }
  const functions = functionsAt(trace, i);
  if (functions.length > 0) out += `,"functions":${functionsJson(functions)}`;
  if (values) out += `,"frames":${JSON.stringify(frameValues(trace, i).map((f) => ({ function: f.label, args: f.args === undefined ? null : Object.fromEntries(f.args.map((a, k) => [a.name || `_${k}`, a.value])), ...(f.note !== undefined ? { note: f.note } : {}) })))}`;
  return `${out}}`;
}

/** Why frames have no source: one line each, `0xADDRESS: reason`, in the order they ran. */
export function unmappedNotes(trace: DebugTrace): string[] {
  const notes: string[] = [];
  const seen = new Set<string>();
  for (const frame of [...trace.frames.values()].sort((a, b) => a.index - b.index)) {
    if (frame.unmapped === undefined) continue;
    const call = trace.tx.frames[frame.index];
    const address = call === undefined ? undefined : codeAddress(call);
    const line = `${address === undefined ? `frame ${frame.index}` : hexBytes(address)}${frame.kind === 'creation' ? ' (init code)' : ''}: ${frame.unmapped}`;
    if (!seen.has(line)) notes.push(line);
    seen.add(line);
  }
  return notes;
}

/** Writes the document in pieces of about 64 KiB. */
export function writeStepsJson(trace: DebugTrace, selection: StepsSelection, write: (text: string) => void): void {
  let chunk = '{"steps":[';
  let first = true;
  forSelectedSteps(trace, selection, (i) => {
    chunk += `${first ? '' : ','}\n${stepJson(trace, i, selection.values === true)}`;
    first = false;
    if (chunk.length >= 65536) {
      write(chunk);
      chunk = '';
    }
  });
  const notes = unmappedNotes(trace);
  write(`${chunk}\n],"revert":${revertStep(trace) ?? null},"unmapped":${JSON.stringify(notes)}}\n`);
}
