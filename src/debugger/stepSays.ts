// What a step says, decoded with the builds' ABIs (and the built-in table: ERC-20, Error, Panic…):
// the call a CALL makes, the event a LOG emits, the value a RETURN gives back, the error a REVERT
// raises. Read from the step's stack and memory, so only where its detail was run again.
import { AbiDecoder } from '../abi/decoder.ts';
import { formatDecoded, formatRevert } from '../abi/format.ts';
import type { DebugTrace } from './debugTrace.ts';
import type { StepDetail } from './stepDetails.ts';

const decoders = new WeakMap<DebugTrace, AbiDecoder>();

function decoderOf(trace: DebugTrace): AbiDecoder {
  let decoder = decoders.get(trace);
  if (decoder === undefined) {
    // every contract of the builds the transaction's code came from: a call or an event may be another's
    const builds = new Set([...trace.frames.values()].flatMap((f) => (f.contract === undefined ? [] : [f.contract.build])));
    const all = [...builds].flatMap((b) => b.contracts);
    decoders.set(trace, (decoder = new AbiDecoder(all.map((c) => ({ name: c.name, abi: c.abi })))));
  }
  return decoder;
}

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

/** Bytes `offset..offset+length` of the step's memory (zeros past its end, as the EVM reads them). */
function memorySlice(detail: StepDetail, offset: bigint, length: bigint): Uint8Array | undefined {
  if (length > 1_000_000n || offset > 1n << 32n) return undefined;
  const out = new Uint8Array(Number(length));
  out.set(detail.memory.subarray(Number(offset), Number(offset + length)));
  return out;
}

/** One line for the step, or undefined when it calls, emits, returns and reverts nothing. */
export function stepSays(trace: DebugTrace, i: number, detail: StepDetail): string | undefined {
  const op = trace.steps.op[i]!;
  const s = detail.stack;
  const decoder = decoderOf(trace);
  if (op >= 0xa0 && op <= 0xa4 && s.length >= 2 + op - 0xa0) {
    const data = memorySlice(detail, s[0]!, s[1]!);
    const topics = s.slice(2, 2 + op - 0xa0).map((t) => `0x${t.toString(16).padStart(64, '0')}`);
    const event = data === undefined ? undefined : decoder.event(topics, hex(data));
    return event === undefined ? `event with ${topics.length} topics (${topics[0] ?? 'anonymous'}) not in the ABIs` : `emits ${formatDecoded(event)}`;
  }
  if ((op === 0xf3 || op === 0xfd) && s.length >= 2) {
    const data = memorySlice(detail, s[0]!, s[1]!);
    if (data === undefined) return undefined;
    if (op === 0xfd) {
      const error = data.length === 0 ? undefined : decoder.revert(hex(data));
      return data.length === 0 ? 'reverts with no data' : error === undefined ? `reverts with ${hex(data).slice(0, 74)}` : `reverts: ${formatRevert(error)}`;
    }
    const frame = trace.tx.frames[trace.steps.frame[i]!];
    const result = frame === undefined || trace.frames.get(frame.index)?.kind === 'creation' ? undefined : decoder.result(hex(frame.input), hex(data));
    return result === undefined ? (data.length === 0 ? 'returns nothing' : `returns ${data.length} bytes`) : `returns ${formatDecoded(result)}`;
  }
  const call = op === 0xf1 || op === 0xf2 ? [3, 4] : op === 0xf4 || op === 0xfa ? [2, 3] : undefined;
  if (call !== undefined && s.length > call[1]!) {
    const input = memorySlice(detail, s[call[0]!]!, s[call[1]!]!);
    const to = `0x${(s[1]! & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`;
    const decoded = input === undefined ? undefined : decoder.call(hex(input));
    return `calls ${to}${decoded === undefined ? ` with ${input?.length ?? 0} bytes` : `::${formatDecoded(decoded)}`}`;
  }
  return undefined;
}
