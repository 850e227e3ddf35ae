// The steps of a debugged transaction, held in columns (typed arrays) so a run of a million opcodes
// costs tens of megabytes, not a million objects. What repeats from step to step (the source
// location, the Solidity call stack) is a number into a table of its own.

import type { FunctionDef } from './builds.ts';

const GROWTH = 2;
/** Stack words kept at a function's entry: enough for its arguments. */
export const ENTRY_WORDS = 16;

export class StepTable {
  length = 0;
  pc = new Int32Array(1024);
  op = new Uint8Array(1024);
  /** From 0 for the transaction's own frame. */
  depth = new Uint16Array(1024);
  /** Gas left and cost, as numbers (exact below 2^53: any gas a block holds). */
  gas = new Float64Array(1024);
  cost = new Float64Array(1024);
  /** Index of the running frame in TxRecording.frames. */
  frame = new Int32Array(1024);
  /** Index into the locations, -1 for an instruction with no user source. */
  location = new Int32Array(1024);
  /** Index into the call-stack nodes (CallStacks). */
  node = new Int32Array(1024);

  push(pc: number, op: number, depth: number, gas: bigint, cost: bigint, frame: number, location: number, node: number): number {
    if (this.length === this.pc.length) this.grow();
    const i = this.length++;
    this.pc[i] = pc;
    this.op[i] = op;
    this.depth[i] = depth;
    this.gas[i] = Number(gas);
    this.cost[i] = Number(cost);
    this.frame[i] = frame;
    this.location[i] = location;
    this.node[i] = node;
    return i;
  }

  private grow(): void {
    const size = this.pc.length * GROWTH;
    const more = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(a: T, make: new (n: number) => T): T => {
      const b = new make(size);
      (b as { set(from: T): void }).set(a);
      return b;
    };
    this.pc = more(this.pc, Int32Array);
    this.op = more(this.op, Uint8Array);
    this.depth = more(this.depth, Uint16Array);
    this.gas = more(this.gas, Float64Array);
    this.cost = more(this.cost, Float64Array);
    this.frame = more(this.frame, Int32Array);
    this.location = more(this.location, Int32Array);
    this.node = more(this.node, Int32Array);
  }
}

/**
 * The Solidity call stack as a tree of nodes: each step names the node it runs in, and a node's
 * chain of parents is the stack, outermost last. A node is an EVM frame (external: named once the
 * frame's calldata is known) or an internal function entered by a jump.
 */
export interface CallStackNode {
  readonly parent: number;
  /** The EVM frame (TxRecording.frames index) the node belongs to. */
  readonly frame: number;
  /**
   * undefined for the frame's own (external) node; 'hidden' for a function with no name known here
   * (the compiler's own helpers, `checked_add_t_uint256` and the like): kept, so that its `o` jump
   * leaves it and not its caller, but not shown.
   */
  readonly internal: { readonly contract: string; readonly name: string } | 'hidden' | undefined;
  /** The step that entered it. */
  readonly entry: number;
  /** An internal function's definition, when the build names it. */
  readonly def?: FunctionDef | undefined;
  /** The top of the stack as the function was entered, top first (its arguments, as solc's legacy code generator leaves them). */
  readonly stackAtEntry?: readonly bigint[] | undefined;
}

export class CallStacks {
  readonly nodes: CallStackNode[] = [];

  add(node: CallStackNode): number {
    this.nodes.push(node);
    return this.nodes.length - 1;
  }
}
