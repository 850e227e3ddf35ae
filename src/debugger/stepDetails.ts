// What a step shows beyond its place: the stack, the memory with the bytes the opcode reads and
// writes, the storage slot it reads or writes (old and new value), and the keccak preimages seen so
// far (a mapping entry's key). The first pass keeps none of this (a million steps would be
// gigabytes); the transaction is run again for a window of steps around the one wanted, and only
// those are copied.
import type { ChainView } from '../replay/chainView.ts';
import type { StepSink } from '../trace/types.ts';
import type { DebugTrace } from './debugTrace.ts';

export interface MemoryRange {
  readonly offset: number;
  readonly length: number;
}

export interface StorageAccess {
  readonly slot: bigint;
  /** The value read (SLOAD), or the value before a write (SSTORE). */
  readonly before: bigint;
  /** SSTORE: the value written. */
  readonly after?: bigint | undefined;
}

export interface StepDetail {
  /** Top first. */
  readonly stack: readonly bigint[];
  readonly memory: Uint8Array;
  readonly reads: MemoryRange | undefined;
  readonly writes: MemoryRange | undefined;
  readonly storage: StorageAccess | undefined;
  /** The frame's calldata, its last call's return data. */
  readonly returnData: Uint8Array;
}

/** Thrown by the sink past the window's last step: the run stops there. */
class WindowDone extends Error {}

const SLOAD = 0x54;
const SSTORE = 0x55;
const KECCAK = 0x20;

/** The memory an opcode reads and writes, from its stack (top first): solc's and the EVM's offsets. */
export function memoryAccess(op: number, stack: readonly bigint[]): { reads?: MemoryRange; writes?: MemoryRange } {
  const at = (k: number): number => Number(stack[k] ?? 0n);
  const range = (o: number, l: number): MemoryRange | undefined => (stack.length > Math.max(o, l) && at(l) > 0 && at(o) < 2 ** 32 ? { offset: at(o), length: at(l) } : undefined);
  const r = (range: MemoryRange | undefined): { reads?: MemoryRange } => (range === undefined ? {} : { reads: range });
  const w = (range: MemoryRange | undefined): { writes?: MemoryRange } => (range === undefined ? {} : { writes: range });
  const word = (o: number, n = 32): MemoryRange | undefined => (stack.length > o && at(o) < 2 ** 32 ? { offset: at(o), length: n } : undefined);
  switch (op) {
    case 0x51: return r(word(0)); // MLOAD
    case 0x52: return w(word(0)); // MSTORE
    case 0x53: return w(word(0, 1)); // MSTORE8
    case KECCAK: return r(range(0, 1));
    case 0x37: case 0x39: case 0x3e: return w(range(0, 2)); // CALLDATACOPY, CODECOPY, RETURNDATACOPY
    case 0x3c: return w(range(1, 3)); // EXTCODECOPY
    case 0x5e: return { ...r(range(1, 2)), ...w(range(0, 2)) }; // MCOPY
    case 0xa0: case 0xa1: case 0xa2: case 0xa3: case 0xa4: case 0xf3: case 0xfd: return r(range(0, 1)); // LOG*, RETURN, REVERT
    case 0xf0: return r(range(1, 2)); // CREATE
    case 0xf5: return r(range(1, 2)); // CREATE2
    case 0xf1: case 0xf2: return { ...r(range(3, 4)), ...w(range(5, 6)) }; // CALL, CALLCODE
    case 0xf4: case 0xfa: return { ...r(range(2, 3)), ...w(range(4, 5)) }; // DELEGATECALL, STATICCALL
    default: return {};
  }
}

export interface DetailWindow {
  readonly from: number;
  readonly details: readonly StepDetail[];
  /** keccak256 output (hex, 64 digits) → its input, for every KECCAK256 of the transaction up to the window's end. */
  readonly preimages: ReadonlyMap<string, Uint8Array>;
}

/** Runs the transaction again and copies steps `from` to `to` (included). */
export async function detailWindow(chain: ChainView, trace: DebugTrace, from: number, to: number): Promise<DetailWindow> {
  const details: StepDetail[] = [];
  const preimages = new Map<string, Uint8Array>();
  let count = 0;
  let hashing: Uint8Array | undefined;
  const sink: StepSink = {
    needs: { stack: true, memory: true, returnData: true, slotValues: true, codeSizes: false, storedValues: true },
    watches: (i) => i === trace.location.index,
    only: trace.location.index,
    begin: () => {},
    step: (step) => {
      const i = count++;
      // the window is whole: the rest of the transaction need not run
      if (i > to) throw new WindowDone();
      const top = step.stack.length - 1;
      if (hashing !== undefined && top >= 0) preimages.set(step.stack[top]!.toString(16).padStart(64, '0'), hashing);
      hashing = undefined;
      if (step.op === KECCAK && top >= 1) {
        const offset = Number(step.stack[top]!);
        const length = Number(step.stack[top - 1]!);
        if (length <= 1024 && offset + length <= step.memory.length) hashing = step.memory.slice(offset, offset + length);
      }
      if (i < from || i > to) return;
      const stack = [...step.stack].reverse();
      const access = memoryAccess(step.op, stack);
      let storage: StorageAccess | undefined;
      if (step.op === SLOAD && step.loaded !== undefined) storage = { slot: stack[0]!, before: step.loaded };
      if (step.op === SSTORE && step.overwritten !== undefined) storage = { slot: stack[0]!, before: step.overwritten, after: stack[1] };
      details.push({ stack, memory: step.memory.slice(), reads: access.reads, writes: access.writes, storage, returnData: step.returnData.slice() });
    },
    end: () => {},
  };
  try {
    await chain.recordBlock(trace.location.block, { steps: sink });
  } catch (err) {
    if (!(err instanceof WindowDone)) throw err;
  }
  return { from, details, preimages };
}
