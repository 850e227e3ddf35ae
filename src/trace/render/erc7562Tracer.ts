// go-ethereum's erc7562Tracer (eth/tracers/native/erc7562.go, gen_callframewithopcodes_json.go),
// behind --all-tracers: what ERC-4337 bundlers check a user operation's validation against (the
// ERC-7562 rules). The callTracer tree, each frame with the opcodes it ran, the storage slots it read
// and wrote (transient ones too), the accounts whose code it asked about, the code sizes of the
// accounts it called or asked about, and whether it ran out of gas; the root with every KECCAK256
// input of the transaction. Gathered from the recorder's step stream as the opcodes run; rendered at
// the transaction's end.
import { Type } from '@sinclair/typebox';
import type { TextBudget } from '../../encoding/boundedJson.ts';
import { hexBytes, hexQuantity, hexWord } from '../../encoding/hex.ts';
import type { StepTracer, SteppedTracer } from '../tracerEntry.ts';
import type { Failure, OpcodeStep, TxRecording } from '../types.ts';
import { type CallLogJson, frameHead, frameLogs, gethFrame } from './callTracer.ts';
import { gethError } from './errorStrings.ts';

export interface Erc7562Config {
  /** How many stack items each opcode keeps for the next one (0: 3). */
  readonly stackTopItemsSize?: number;
  /** Opcodes not counted in usedOpcodes; absent or null: PUSH0…SWAP16 and the plain arithmetic. */
  readonly ignoredOpcodes?: readonly string[] | null;
  readonly withLog?: boolean;
}

// Unknown keys are ignored, as json.Unmarshal into erc7562TracerConfig ignores them.
const configSchema = Type.Object(
  {
    stackTopItemsSize: Type.Optional(Type.Integer({ minimum: 0 })),
    ignoredOpcodes: Type.Optional(Type.Union([Type.Null(), Type.Array(Type.String({ pattern: '^0[xX](0|[1-9a-fA-F][0-9a-fA-F]{0,15})$' }))])),
    withLog: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

const OP = {
  ADD: 0x01, MUL: 0x02, SUB: 0x03, DIV: 0x04, LT: 0x10, GT: 0x11, SLT: 0x12, SGT: 0x13, EQ: 0x14, ISZERO: 0x15,
  AND: 0x16, OR: 0x17, NOT: 0x19, SHL: 0x1b, SHR: 0x1c, KECCAK256: 0x20, EXTCODESIZE: 0x3b, EXTCODECOPY: 0x3c,
  EXTCODEHASH: 0x3f, POP: 0x50, SLOAD: 0x54, SSTORE: 0x55, GAS: 0x5a, TLOAD: 0x5c, TSTORE: 0x5d, PUSH0: 0x5f,
  SWAP16: 0x9f, CALL: 0xf1, CALLCODE: 0xf2, RETURN: 0xf3, DELEGATECALL: 0xf4, STATICCALL: 0xfa, REVERT: 0xfd,
} as const;
const EXT = new Set<number>([OP.EXTCODEHASH, OP.EXTCODESIZE, OP.EXTCODECOPY]);
const CALLS = new Set<number>([OP.CALL, OP.CALLCODE, OP.DELEGATECALL, OP.STATICCALL]);

/** defaultIgnoredOpcodes: PUSH0 through SWAP16, then the plain arithmetic and comparisons. */
function defaultIgnored(): Set<number> {
  const ignored = new Set<number>();
  for (let op = OP.PUSH0; op <= OP.SWAP16; op++) ignored.add(op);
  for (const op of [OP.POP, OP.ADD, OP.SUB, OP.MUL, OP.DIV, OP.EQ, OP.LT, OP.GT, OP.SLT, OP.SGT, OP.SHL, OP.SHR, OP.AND, OP.OR, OP.NOT, OP.ISZERO]) ignored.add(op);
  return ignored;
}

/** A keccak input longer than memory is padded with zeros, by at most this much (internal.GetMemoryCopyPadded). */
const MEMORY_PAD_LIMIT = 1024n * 1024n;
const INT64_MAX = (1n << 63n) - 1n;

/** What one frame's opcodes showed. */
interface FrameOps {
  readonly reads: Map<string, string[]>;
  readonly writes: Map<string, number>;
  readonly transientReads: Map<string, number>;
  readonly transientWrites: Map<string, number>;
  readonly extCodeAccess: string[];
  readonly usedOpcodes: Map<number, number>;
  readonly contractSize: Map<string, { contractSize: number; opcode: number }>;
}

const newFrameOps = (): FrameOps => ({
  reads: new Map(), writes: new Map(), transientReads: new Map(), transientWrites: new Map(),
  extCodeAccess: [], usedOpcodes: new Map(), contractSize: new Map(),
});

const count = <K>(map: Map<K, number>, key: K): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

/** A stack word as an address (its low 160 bits), `0x` and 40 hex digits. */
function address(word: bigint): string {
  return '0x' + (word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0');
}

/** A Go map with string keys as encoding/json writes it: keys sorted. */
function sorted<V>(map: Map<string, V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}

class Erc7562 implements StepTracer {
  private readonly topItems: number;
  private readonly ignored: Set<number>;
  private frames = new Map<number, FrameOps>();
  /** The previous opcode (of any frame) and its stack top (lastOpWithStack). */
  private last: { op: number; top: bigint | undefined } | undefined;
  private keccak = new Set<string>();

  constructor(private readonly config: Erc7562Config, private readonly budget: TextBudget) {
    this.topItems = config.stackTopItemsSize === undefined || config.stackTopItemsSize === 0 ? 3 : config.stackTopItemsSize;
    const listed = config.ignoredOpcodes;
    this.ignored = listed === undefined || listed === null ? defaultIgnored() : new Set(listed.map((op) => Number(BigInt(op) & 0xffn)));
  }

  begin(): void {
    this.frames = new Map();
    this.last = undefined;
    this.keccak = new Set();
  }

  /** erc7562Tracer.OnOpcode, its handlers in its order. */
  step(step: OpcodeStep): void {
    const { op, stack } = step;
    const n = stack.length;
    const peek = (i: number): bigint | undefined => (i < n ? stack[n - 1 - i] : undefined);
    let frame = this.frames.get(step.frame);
    if (frame === undefined) this.frames.set(step.frame, (frame = newFrameOps()));
    if (op === OP.REVERT || op === OP.RETURN) this.last = undefined;
    const last = this.last;
    // [OP-051] an EXTCODE* whose result is not only tested for zero
    if (last !== undefined && EXT.has(last.op) && last.top !== undefined && !(last.op === OP.EXTCODESIZE && op === OP.ISZERO)) {
      frame.extCodeAccess.push(address(last.top));
    }
    // [OP-041] the code size of an account called or asked about, the first time in the frame
    if (EXT.has(op) || CALLS.has(op)) {
      const target = peek(EXT.has(op) ? 0 : 1);
      if (target !== undefined && step.codeSize !== undefined && !frame.contractSize.has(address(target))) {
        frame.contractSize.set(address(target), { contractSize: step.codeSize, opcode: op });
      }
    }
    // [OP-012] GAS counts only when a CALL does not follow it
    if (last !== undefined && last.op === OP.GAS && !CALLS.has(op)) count(frame.usedOpcodes, OP.GAS);
    if (op !== OP.GAS && !this.ignored.has(op)) count(frame.usedOpcodes, op);
    this.storage(step, frame, peek(0));
    if (op === OP.KECCAK256 && n >= 2) this.preimage(step.memory, peek(0)!, peek(1)!);
    this.last = { op, top: this.topItems > 0 ? peek(0) : undefined };
  }

  private storage(step: OpcodeStep, frame: FrameOps, top: bigint | undefined): void {
    const { op } = step;
    if (top === undefined || (op !== OP.SLOAD && op !== OP.SSTORE && op !== OP.TLOAD && op !== OP.TSTORE)) return;
    const slot = hexWord(top);
    if (op === OP.SLOAD) {
      // the value before the operation first touched it
      if (!frame.reads.has(slot) && !frame.writes.has(slot) && step.loaded !== undefined) frame.reads.set(slot, [hexWord(step.loaded)]);
    } else if (op === OP.SSTORE) count(frame.writes, slot);
    else if (op === OP.TLOAD) count(frame.transientReads, slot);
    else count(frame.transientWrites, slot);
  }

  /** The KECCAK256 input (storeKeccak: offset and size as uint64, then int64; zero-padded past memory). */
  private preimage(memory: Uint8Array, offsetWord: bigint, sizeWord: bigint): void {
    const offset = BigInt.asUintN(64, offsetWord);
    const size = BigInt.asUintN(64, sizeWord);
    if (offset > INT64_MAX || size > INT64_MAX) return;
    const length = BigInt(memory.length);
    if (offset + size >= length && offset + size - length > MEMORY_PAD_LIMIT) return;
    const bytes = new Uint8Array(Number(size));
    if (offset < length) bytes.set(memory.subarray(Number(offset), Number(offset + size < length ? offset + size : length)));
    const hex = hexBytes(bytes);
    if (this.keccak.has(hex)) return;
    this.budget.spend(hex.length + 3);
    this.keccak.add(hex);
  }

  end(tx: TxRecording): unknown {
    const root = this.frame(tx, 0, false);
    this.frames = new Map();
    return root;
  }

  /** Frame `i` with its opcodes' findings, keys in gen_callframewithopcodes_json.go's order. */
  private frame(tx: TxRecording, i: number, parentFailed: boolean): Record<string, unknown> {
    const frame = tx.frames[i]!;
    const ops = this.frames.get(i) ?? newFrameOps();
    const g = gethFrame(tx, i);
    const out: Record<string, unknown> = frameHead(tx, i, g);
    const logs: Iterable<CallLogJson> | undefined = this.config.withLog === true ? frameLogs(frame, parentFailed) : undefined;
    if (logs !== undefined) out['logs'] = logs;
    if (g.value !== undefined) out['value'] = g.value;
    out['accessedSlots'] = {
      reads: sorted(ops.reads),
      writes: sorted(ops.writes),
      transientReads: sorted(ops.transientReads),
      transientWrites: sorted(ops.transientWrites),
    };
    out['extCodeAccessInfo'] = ops.extCodeAccess;
    out['usedOpcodes'] = sorted(new Map([...ops.usedOpcodes].map(([op, c]) => [hexQuantity(op), c])));
    out['contractSize'] = sorted(ops.contractSize);
    // set from the frame's exit: never for the transaction's own call
    out['outOfGas'] = i !== 0 && frame.failure !== undefined && outOfGas(frame.failure);
    if (i === 0 && this.keccak.size > 0) out['keccak'] = [...this.keccak].sort();
    if (frame.children.length > 0) {
      const failed = parentFailed || frame.failure !== undefined;
      out['calls'] = frame.children.map((c) => this.frame(tx, c, failed));
    }
    out['type'] = g.type;
    return out;
  }
}

/** errors.Is(err, ErrCodeStoreOutOfGas) || errors.Is(err, ErrOutOfGas): plain and wrapped ("out of gas: …"). */
function outOfGas(failure: Failure): boolean {
  return failure.kind === 'codeStoreOutOfGas' || gethError(failure).startsWith('out of gas');
}

export const erc7562Tracer: SteppedTracer<Erc7562Config> = {
  name: 'erc7562Tracer',
  configSchema,
  optIn: true,
  needs: () => ({ state: false, steps: { stack: true, memory: true, returnData: false, slotValues: true, codeSizes: true } }),
  steps: (config, budget) => new Erc7562(config, budget),
};
