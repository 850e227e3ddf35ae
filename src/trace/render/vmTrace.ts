// Parity's `vmTrace` as reth writes it for trace_replay* and trace_call* (revm-inspectors
// src/tracing/builder/parity.rs make_instruction, from the steps mod.rs records with
// TracingInspectorConfig::from_parity_config; alloy rpc-types-trace parity.rs VmTrace, VmInstruction,
// VmExecutedOperation, MemoryDelta). One op per opcode, written from the recorder's step stream as
// the opcodes run, into text counted against the answer's budget (as the struct logger's entries);
// the frames' texts are put together when the transaction ends (vmTraceTree.ts). An op is
// `{"cost","ex":{"used","push","mem":{"off","data"},"store"},"pc","sub","op"}`:
// - `used` is the gas left BEFORE the op (CallTraceStep.gas_remaining, taken in `step`);
// - `cost` is what the op took by step_end: for the CALL family the gas handed to the callee too, for
//   CREATE/CREATE2 all but a 64th of what is left, for an op that runs out of gas all that was left
//   (revm spends it all) unless it failed on its memory, for one refused before it is charged (static
//   SSTORE, EIP-2200 sentry) 0 (vmTraceCost.ts);
// - `push` is the top `outputs` items of the stack at step_end: what the op pushed; for the CALL and
//   CREATE families the item under their arguments (the result is pushed after step_end); for an op
//   that fails, the stack it leaves;
// - `mem` is the WHOLE memory before the op, at every op (`off` its length), not what the op wrote;
// - `store` is always null: from_parity_config records no state changes (record_state_diff off);
// - `sub` is a callee's trace, placed as vmTraceTree.ts describes; `idx` is never written.
import { Type } from '@sinclair/typebox';
import { RenderedJson, type TextBudget } from '../../encoding/boundedJson.ts';
import type { StepTracer, SteppedTracer } from '../tracerEntry.ts';
import type { OpcodeStep, TxRecording } from '../types.ts';
import { revmOpcodeName } from './errorStrings.ts';
import { stackLeft, vmTraceCost } from './vmTraceCost.ts';
import { assembleVmTrace, type FrameOps } from './vmTraceTree.ts';

/** Ops are joined into flat strings of about this many characters. */
const CHUNK = 1 << 16;

/** CALL-family and CREATE-family opcodes and the stack items each takes (revm OpCodeInfo inputs). */
const CALL_LIKE = new Map<number, number>([[0xf0, 3], [0xf1, 7], [0xf2, 7], [0xf4, 6], [0xf5, 4], [0xfa, 6]]);
/** Opcodes that push nothing (revm OpCodeInfo outputs 0); an unknown opcode pushes nothing either. */
const NO_OUTPUT = new Set([
  0x00, 0x37, 0x39, 0x3c, 0x3e, 0x50, 0x52, 0x53, 0x55, 0x56, 0x57, 0x5b, 0x5d, 0x5e,
  0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xf3, 0xfd, 0xfe, 0xff,
]);
/** revm OpCode::modifies_memory: after any other op the memory is the one before it (mod.rs start_step reuses it). */
const MODIFIES_MEMORY = new Set([0x3c, 0x51, 0x52, 0x53, 0x5e, 0x20, 0x39, 0x37, 0x3e, 0xf1, 0xf2, 0xf4, 0xfa, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xf3, 0xfd, 0xf0, 0xf5]);

/** Stack items an op leaves on top at step_end (revm OpCodeInfo outputs). */
function outputs(op: number): number {
  if (op >= 0x80 && op <= 0x8f) return op - 0x80 + 2; // DUPn: n + 1
  if (op >= 0x90 && op <= 0x9f) return op - 0x90 + 2; // SWAPn: n + 1
  return NO_OUTPUT.has(op) || revmOpcodeName(op).startsWith('UNKNOWN') ? 0 : 1;
}

const quantity = (v: bigint): string => `"0x${v.toString(16)}"`;
const tail = (stack: readonly bigint[], n: number): string => stack.slice(Math.max(0, stack.length - n)).map(quantity).join(',');

/** An op whose `push` waits for the next step of its frame (the stack then). */
interface Pending {
  /** The text before the pushed items and after them. */
  readonly head: string;
  readonly rest: string;
  readonly outputs: number;
  /** The top items of the stack it leaves if it fails (it ends its frame then; vmTraceCost.ts stackLeft). */
  readonly own: string;
}

/** A frame whose ops are being written. */
class FrameWriter implements FrameOps {
  readonly segments: string[][] = [[]];
  holes = 0;
  firstOp = -1;
  lastOp = -1;
  pending: Pending | undefined;
  /** The memory's text at the last op and whether that op could change it. */
  memory = '"off":0,"data":"0x"';
  memoryStale = true;
  private entries: string[] = [];
  private size = 0;

  constructor(readonly index: number, readonly depth: number, private readonly budget: TextBudget) {}

  /** Appends op text (a comma before every op but the first is the caller's). */
  add(text: string): void {
    this.budget.spend(text.length);
    this.entries.push(text);
    this.size += text.length;
    if (this.size >= CHUNK) this.flush();
  }

  /** A sub-trace goes here. */
  hole(): void {
    this.flush();
    this.segments.push([]);
    this.holes++;
  }

  /** The pending op's push is now known. */
  settle(pushed: string): void {
    const p = this.pending;
    if (p === undefined) return;
    this.pending = undefined;
    this.add(p.head + pushed + p.rest);
  }

  flush(): void {
    if (this.entries.length === 0) return;
    this.segments[this.segments.length - 1]!.push(this.entries.join(''));
    this.entries = [];
    this.size = 0;
  }
}

class VmTraceLog implements StepTracer {
  private frames = new Map<number, FrameWriter>();
  /** The frames entered and not yet left, outermost first. */
  private open: FrameWriter[] = [];

  constructor(private readonly budget: TextBudget) {}

  begin(): void {
    this.frames = new Map();
    this.open = [];
  }

  step(step: OpcodeStep): void {
    const frame = this.frameOf(step);
    frame.settle(tail(step.stack, frame.pending?.outputs ?? 0));
    const { op } = step;
    if (frame.memoryStale) {
      const m = step.memory;
      frame.memory = `"off":${m.length},"data":"0x${Buffer.from(m.buffer, m.byteOffset, m.byteLength).toString('hex')}"`;
    }
    frame.memoryStale = MODIFIES_MEMORY.has(op);
    const head = `${frame.firstOp < 0 ? '' : ','}{"cost":${vmTraceCost(step)},"ex":{"used":${step.gas},"push":[`;
    const rest = `],"mem":{${frame.memory}},"store":null},"pc":${step.pc},"sub":`;
    const name = `,"op":"${revmOpcodeName(op)}"}`;
    if (frame.firstOp < 0) frame.firstOp = op;
    frame.lastOp = op;
    const inputs = CALL_LIKE.get(op);
    if (inputs !== undefined) {
      // revm pushes the call's result after step_end: the item under its arguments is on top then
      const below = step.stack.length >= inputs ? step.stack.length - inputs : step.stack.length;
      frame.add(head + tail(step.stack.slice(0, below), 1) + rest);
      frame.hole();
      frame.add(name);
      return;
    }
    const n = outputs(op);
    frame.pending = { head, rest: rest + 'null' + name, outputs: n, own: tail(stackLeft(step), n) };
  }

  /** The writer of the step's frame; frames left since the last step are closed. */
  private frameOf(step: OpcodeStep): FrameWriter {
    let top = this.open[this.open.length - 1];
    while (top !== undefined && top.index !== step.frame && top.depth >= step.depth) {
      this.close(top);
      this.open.pop();
      top = this.open[this.open.length - 1];
    }
    if (top !== undefined && top.index === step.frame) return top;
    const frame = new FrameWriter(step.frame, step.depth, this.budget);
    this.frames.set(step.frame, frame);
    this.open.push(frame);
    return frame;
  }

  /** A frame is over: its last op pushed nothing if it ended the frame, else it failed (`own`). */
  private close(frame: FrameWriter): void {
    const p = frame.pending;
    if (p !== undefined) frame.settle(p.outputs === 0 ? '' : p.own);
    frame.flush();
  }

  end(tx: TxRecording): RenderedJson {
    for (const frame of this.open) this.close(frame);
    this.open = [];
    const { parts, added } = assembleVmTrace(tx, this.frames);
    // the ops were counted as they were written; the codes and brackets are counted now
    this.budget.spend(added);
    this.frames = new Map();
    return new RenderedJson(parts);
  }
}

/** The vmTrace of trace_replay* and trace_call*: not a debug_trace* tracer, so in no registry. */
export const vmTracer: SteppedTracer<unknown> = {
  name: 'vmTrace',
  configSchema: Type.Object({}),
  // `code` is read before the transaction: the state log's first look at each account
  needs: () => ({ state: true, steps: { stack: true, memory: true, returnData: false, slotValues: false, codeSizes: false } }),
  steps: (_config, budget) => new VmTraceLog(budget),
};
