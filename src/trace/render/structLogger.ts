// go-ethereum's struct logger, the default tracer (no `tracer` given), behind --all-tracers:
// eth/tracers/logger/logger.go as of 2026 (#34093 "conform structLog tracing to spec", #35349 the
// limit): StructLogger.OnOpcode, GetResult and structLogLegacy's JSON, key for key. One entry per
// opcode, written as the opcode is reached (the recorder's step stream) into text counted against
// the answer's budget, so a run of millions of opcodes stops at the size limit instead of being held.
import { Type } from '@sinclair/typebox';
import { RenderedJson, type TextBudget } from '../../encoding/boundedJson.ts';
import { hexBytes, hexWord } from '../../encoding/hex.ts';
import { goJson } from '../../encoding/json.ts';
import type { StepTracer, SteppedTracer, TracerNeeds } from '../tracerEntry.ts';
import type { OpcodeStep, TxRecording } from '../types.ts';
import { gethOpcodeName, gethStepError } from './errorStrings.ts';

/** logger.Config, as TraceConfig carries it (its fields sit in TraceConfig itself, not in tracerConfig). */
export interface StructLogConfig {
  readonly enableMemory: boolean;
  readonly disableStack: boolean;
  readonly disableStorage: boolean;
  readonly enableReturnData: boolean;
  /** Entries stop once their JSON adds up to more than this many bytes; 0: no limit. */
  readonly limit: number;
}

const SLOAD = 0x54;
const SSTORE = 0x55;
/** Entries are joined into flat strings of about this many characters. */
const CHUNK = 1 << 16;

/** The memory as 32-byte words, each `"0x…"` (formatMemoryWord; memory is whole words). */
function memoryWords(memory: Uint8Array): string {
  const hex = Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength).toString('hex');
  const words: string[] = [];
  for (let i = 0; i < hex.length; i += 64) words.push(`"0x${hex.slice(i, i + 64).padEnd(64, '0')}"`);
  return words.join(',');
}

/** One contract's slots as the logger has seen them in this transaction (l.storage[address]). */
class SlotSnapshot {
  private readonly slots = new Map<string, string>();
  private text: string | undefined;

  set(slot: bigint, value: bigint): void {
    // common.Hash.Hex()
    const key = hexWord(slot);
    const v = hexWord(value);
    if (this.slots.get(key) === v) return;
    this.slots.set(key, v);
    this.text = undefined;
  }

  /** The snapshot as Go writes a map[string]string: keys sorted. */
  json(): string {
    this.text ??= `{${[...this.slots.keys()].sort().map((k) => `"${k}":"${this.slots.get(k)}"`).join(',')}}`;
    return this.text;
  }
}

/** One opcode's entry, structLogLegacy's keys in their order, omitempty as Go applies it. */
function entry(step: OpcodeStep, config: StructLogConfig, storage: string | undefined): string {
  let out = `{"pc":${step.pc},"op":"${gethOpcodeName(step.op)}","gas":${step.gas},"gasCost":${step.cost},"depth":${step.depth + 1}`;
  const error = step.failure === undefined ? undefined : gethStepError(step.failure);
  if (error !== undefined) out += `,"error":${goJson(error)}`;
  if (!config.disableStack) out += `,"stack":[${step.stack.map((v) => `"0x${v.toString(16)}"`).join(',')}]`;
  if (config.enableReturnData && step.returnData.length > 0) out += `,"returnData":"${hexBytes(step.returnData)}"`;
  if (config.enableMemory && step.memory.length > 0) out += `,"memory":[${memoryWords(step.memory)}]`;
  if (storage !== undefined) out += `,"storage":${storage}`;
  if (step.refund > 0n) out += `,"refund":${step.refund}`;
  return out + '}';
}

/** The struct logger of one request: a fresh StructLogger per transaction, as traceTx makes one. */
/** What the struct logger reads of each step: the stack (also for SLOAD/SSTORE's slot), memory and return data as the config enables them. */
function structLogNeeds(config: StructLogConfig): TracerNeeds {
  return {
    state: false,
    steps: {
      stack: !config.disableStack || !config.disableStorage,
      memory: config.enableMemory,
      returnData: config.enableReturnData,
      slotValues: !config.disableStorage,
      codeSizes: false,
    },
  };
}

class StructLogs implements StepTracer {
  /** The entries written so far: joined into flat strings of about CHUNK characters, and the last few. */
  private chunks: string[] = [];
  private entries: string[] = [];
  private pending = 0;
  /** Bytes of the entries so far (StructLogger.resultSize), for `limit`. */
  private size = 0;
  private storage = new Map<string, SlotSnapshot>();

  constructor(private readonly config: StructLogConfig, private readonly budget: TextBudget) {}

  begin(): void {
    this.chunks = [];
    this.entries = [];
    this.pending = 0;
    this.size = 0;
    this.storage = new Map();
  }

  step(step: OpcodeStep): void {
    const { limit } = this.config;
    if (limit !== 0 && this.size > limit) return;
    const text = entry(step, this.config, this.config.disableStorage ? undefined : this.slots(step));
    this.budget.spend(text.length + 1);
    this.size += text.length;
    this.entries.push(text);
    this.pending += text.length;
    // join() makes one flat string of the entries, built of many pieces each
    if (this.pending >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.entries.length === 0) return;
    this.chunks.push(this.entries.join(','));
    this.entries = [];
    this.pending = 0;
  }

  /** SLOAD and SSTORE: the contract's slots seen so far, this one set (l.storage, cloned per entry). */
  private slots(step: OpcodeStep): string | undefined {
    const { op, stack } = step;
    const top = stack.length - 1;
    if (!((op === SLOAD && top >= 0 && step.loaded !== undefined) || (op === SSTORE && top >= 1))) return undefined;
    const account = hexBytes(step.address);
    let snapshot = this.storage.get(account);
    if (snapshot === undefined) this.storage.set(account, (snapshot = new SlotSnapshot()));
    snapshot.set(stack[top]!, op === SLOAD ? step.loaded! : stack[top - 1]!);
    return snapshot.json();
  }

  /** GetResult: the receipt's gas, whether the top call failed, its output (a revert's data, or nothing). */
  end(tx: TxRecording): RenderedJson {
    const top = tx.frames[0];
    const failure = top?.failure;
    const output = top === undefined || (failure !== undefined && failure.kind !== 'reverted') ? new Uint8Array() : top.output;
    const head = `{"gas":${tx.gasUsed},"failed":${failure !== undefined},"returnValue":"${hexBytes(output)}","structLogs":[`;
    this.budget.spend(head.length + 2);
    this.flush();
    const parts = [head];
    this.chunks.forEach((chunk, i) => parts.push(i === 0 ? chunk : ',' + chunk));
    parts.push(']}');
    this.chunks = [];
    return new RenderedJson(parts);
  }
}

export const structLogger: SteppedTracer<StructLogConfig> = {
  name: 'structLogger',
  configSchema: Type.Object({
    enableMemory: Type.Boolean(),
    disableStack: Type.Boolean(),
    disableStorage: Type.Boolean(),
    enableReturnData: Type.Boolean(),
    limit: Type.Integer(),
  }),
  optIn: true,
  needs: structLogNeeds,
  steps: (config, budget) => new StructLogs(config, budget),
};
