// go-ethereum v1.17.5 callTracer (eth/tracers/native/call.go, gen_callframe_json.go): the nested
// call tree of one transaction, rendered from the neutral arena.
import { Type } from '@sinclair/typebox';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { type LazyArray, lazyMap } from '../../encoding/lazyJson.ts';
import { ARENA_ONLY, type RecordedTracer } from '../tracerEntry.ts';
import type { CallFrame, RecordedLog, TxRecording } from '../types.ts';
import { gethError } from './errorStrings.ts';
import { decodeRevertReason } from './revertReason.ts';

export interface CallTracerConfig {
  readonly onlyTopCall?: boolean;
  readonly withLog?: boolean;
}

/** One log as geth writes it, keys in gen_callframe_json.go order. */
export interface CallLogJson {
  address: string;
  topics: string[];
  data: string;
  index?: string;
  position: string;
}

/**
 * One frame as geth writes it; optional keys are omitted when empty (omitempty). `calls` and `logs`
 * are rendered as they are written (a tree can be far larger than any answer).
 */
export interface CallFrameJson {
  from: string;
  gas: string;
  gasUsed: string;
  to?: string;
  input: string;
  output?: string;
  error?: string;
  revertReason?: string;
  calls?: LazyArray<CallFrameJson>;
  logs?: LazyArray<CallLogJson>;
  value?: string;
  type: string;
}

// Unknown keys are ignored, as go-ethereum's json.Unmarshal into callTracerConfig does (anvil too).
const configSchema = Type.Object({
  onlyTopCall: Type.Optional(Type.Boolean()),
  withLog: Type.Optional(Type.Boolean()),
});

function isCreate(frame: CallFrame): boolean {
  return frame.kind === 'CREATE' || frame.kind === 'CREATE2';
}

function renderLog(log: RecordedLog, onlyTopCall: boolean): CallLogJson {
  const out: CallLogJson = {
    address: hexBytes(log.address),
    topics: log.topics.map(hexBytes),
    data: hexBytes(log.data),
  } as CallLogJson;
  if (log.index >= 0) out.index = hexQuantity(log.index);
  // With onlyTopCall geth records no child frames, so every position is 0 (call.go OnLog).
  out.position = hexQuantity(onlyTopCall ? 0 : log.position);
  return out;
}

/**
 * One frame as go-ethereum's callTracer holds it after processOutput (call.go callFrame), before any
 * format: callTracer writes it nested, flatCallTracer (call_flat.go) flattens it. `output` is unset
 * when the frame keeps none (empty, or failed other than by a revert); `to` is unset for a failed
 * CREATE; `value` for a STATICCALL.
 */
export interface GethFrame {
  readonly from: string;
  readonly gas: string;
  readonly gasUsed: string;
  readonly to: string | undefined;
  readonly input: string;
  readonly output: string | undefined;
  readonly error: string | undefined;
  readonly value: string | undefined;
  readonly type: CallFrame['kind'];
}

export function gethFrame(tx: TxRecording, i: number): GethFrame {
  const frame = tx.frames[i]!;
  const top = i === 0;
  const failure = frame.failure;
  const keepsOutput = (failure === undefined || failure.kind === 'reverted') && frame.output.length > 0;
  return {
    from: hexBytes(frame.from),
    // Top frame: the tx gas limit and the receipt's gasUsed (call.go OnTxStart / OnTxEnd).
    gas: hexQuantity(top ? tx.gasLimit : frame.gas),
    gasUsed: hexQuantity(top ? tx.gasUsed : frame.gasUsed),
    // processOutput clears `to` of a failed CREATE/CREATE2.
    to: frame.to !== undefined && !(failure !== undefined && isCreate(frame)) ? hexBytes(frame.to) : undefined,
    input: hexBytes(frame.input),
    output: keepsOutput ? hexBytes(frame.output) : undefined,
    error: failure !== undefined ? gethError(failure) : undefined,
    value: frame.kind !== 'STATICCALL' ? hexQuantity(frame.value) : undefined,
    type: frame.kind,
  };
}

/** The keys every go-ethereum call frame starts with (call.go callFrame, erc7562.go callFrameWithOpcodes). */
export type FrameHead = Pick<CallFrameJson, 'from' | 'gas' | 'gasUsed' | 'to' | 'input' | 'output' | 'error' | 'revertReason'>;

/** Frame `i`'s first keys, omitted when empty as Go's omitempty does. */
export function frameHead(tx: TxRecording, i: number, g: GethFrame = gethFrame(tx, i)): FrameHead {
  const frame = tx.frames[i]!;
  const out: FrameHead = { from: g.from, gas: g.gas, gasUsed: g.gasUsed } as FrameHead;
  if (g.to !== undefined) out.to = g.to;
  out.input = g.input;
  if (g.output !== undefined) out.output = g.output;
  if (g.error !== undefined) out.error = g.error;
  if (frame.failure?.kind === 'reverted') {
    const reason = decodeRevertReason(frame.output);
    if (reason) out.revertReason = reason;
  }
  return out;
}

/**
 * Frame `i`'s logs with `withLog`, none once it or an ancestor failed (`parentFailed`: call.go
 * clearFailedLogs discards them at the transaction's end).
 */
export function frameLogs(frame: CallFrame, parentFailed: boolean, onlyTopCall = false): LazyArray<CallLogJson> | undefined {
  if (parentFailed || frame.failure !== undefined || frame.logs.length === 0) return undefined;
  return lazyMap(frame.logs, (l) => renderLog(l, onlyTopCall));
}

/**
 * Renders frame `i`. `parentFailed`: an ancestor failed, so this frame's logs were discarded
 * (call.go clearFailedLogs).
 */
function renderFrame(tx: TxRecording, i: number, config: CallTracerConfig, parentFailed: boolean): CallFrameJson {
  const frame = tx.frames[i]!;
  const g = gethFrame(tx, i);
  const out: CallFrameJson = frameHead(tx, i, g) as CallFrameJson;
  if (!config.onlyTopCall && frame.children.length > 0) {
    const failed = parentFailed || frame.failure !== undefined;
    out.calls = lazyMap(frame.children, (c) => renderFrame(tx, c, config, failed));
  }
  const logs = config.withLog ? frameLogs(frame, parentFailed, config.onlyTopCall === true) : undefined;
  if (logs !== undefined) out.logs = logs;
  if (g.value !== undefined) out.value = g.value;
  out.type = g.type;
  return out;
}

export function renderCallTracer(tx: TxRecording, config: CallTracerConfig): CallFrameJson {
  return renderFrame(tx, 0, config, false);
}

export const callTracer: RecordedTracer<CallTracerConfig> = {
  name: 'callTracer',
  needs: () => ARENA_ONLY,
  configSchema,
  render: (tx, config) => renderCallTracer(tx, config),
};
