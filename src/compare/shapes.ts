// The shapes of tracing answers, read as the places a person recognises: a callTracer frame's call
// (type, callee, selector), a Parity trace by its traceAddress, a contract by its name, a log's event,
// a frame's outcome. Names and calls are decoded when ABIs were given. Pure functions of parsed JSON
// nodes; compare/location.ts words them.
import type { AbiDecoder } from '../abi/decoder.ts';
import { formatDecoded, formatRevert } from '../abi/format.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { member } from './jsonText.ts';
import type { FrameCall, PathStep, Place } from './types.ts';
import type { SlotNamer } from '../abi/slots.ts';

/** ABIs and the contract names of addresses (from their code), when `--abi` was given. */
export interface Decoding {
  readonly decoder: AbiDecoder;
  /** Lower-case address → contract name. */
  readonly labels: ReadonlyMap<string, string>;
  /** Names storage slots (state variables, mapping entries keyed by the answers' addresses). */
  readonly slots?: SlotNamer;
}

/** One step down a node: an array's item or an object's member (its last duplicate, as `member` reads it). */
export function at(node: JsonNode | undefined, step: PathStep): JsonNode | undefined {
  if (node === undefined) return undefined;
  if (typeof step === 'number') return node.t === 'array' ? node.items[step] : undefined;
  return member(node, step);
}

/** A string member's value. */
export function text(node: JsonNode | undefined, key: string): string | undefined {
  const v = at(node, key);
  return v?.t === 'string' ? v.value : undefined;
}

/** The contract's name at `address`, from its code, when ABIs were given and one matches. */
export const contractOf = (address: string, decoding: Decoding | undefined): string | undefined => decoding?.labels.get(address.toLowerCase());

const optional = <K extends string, V>(key: K, value: V | undefined): { [k in K]?: V } => (value === undefined ? {} : ({ [key]: value } as { [k in K]: V }));

/** The callee and what an ABI makes of `input` (a call's selector, function and arguments). */
function callData(type: string | undefined, to: string | undefined, input: string | undefined, decoding: Decoding | undefined): FrameCall {
  const creates = type === 'CREATE' || type === 'CREATE2' || type === 'SELFDESTRUCT';
  const call = creates || input === undefined ? undefined : decoding?.decoder.call(input);
  return {
    ...optional('type', type),
    ...optional('to', to),
    ...optional('contract', to === undefined ? undefined : contractOf(to, decoding)),
    ...optional('selector', creates || input === undefined || input.length < 10 ? undefined : input.slice(0, 10)),
    ...(call === undefined ? {} : { function: call.name, decoded: formatDecoded(call) }),
  };
}

/** One frame of a call tree (`CALL Vault.deposit(amount: 5)` as a heading shows it). */
export const frameCall = (frame: JsonNode | undefined, decoding: Decoding | undefined): FrameCall => callData(text(frame, 'type'), text(frame, 'to'), text(frame, 'input'), decoding);

/** A Parity flat trace: its traceAddress, and its call (`callType` for a call; the callee of a creation, a suicide, a reward). */
export function tracePlace(trace: JsonNode | undefined, decoding: Decoding | undefined): Place {
  const address = at(trace, 'traceAddress');
  const action = at(trace, 'action');
  const type = text(trace, 'type');
  const kind = type === 'call' ? (text(action, 'callType') ?? 'call') : type;
  const to = text(action, 'to') ?? text(at(trace, 'result'), 'address') ?? text(action, 'address') ?? text(action, 'author');
  const call = callData(kind, to, type === 'call' ? text(action, 'input') : undefined, decoding);
  return { kind: 'trace', ...(address?.t === 'array' ? { traceAddress: address.items.map((i) => Number(i.raw)) } : {}), call };
}

/** `log 2 Deposited(user: 0x…, …)` or `log 2 (0xe7f1…0512)`: a log by its index, decoded when it can be. */
export function eventOf(log: JsonNode | undefined, decoding: Decoding | undefined): string | undefined {
  const topics = at(log, 'topics');
  const data = text(log, 'data');
  if (decoding === undefined || topics?.t !== 'array' || data === undefined) return undefined;
  const decoded = decoding.decoder.event(topics.items.map((t) => (t.t === 'string' ? t.value : '')), data);
  return decoded === undefined ? undefined : formatDecoded(decoded);
}

/** A frame's call (a creation's constructor arguments: `new Vault(token: 0x…, feeBps: 250)`), or its result, or its revert reason, decoded. */
export function callOf(frame: JsonNode | undefined, decoding: Decoding | undefined): string | undefined {
  const input = text(frame, 'input');
  if (decoding === undefined || input === undefined) return undefined;
  const type = text(frame, 'type');
  if (type === 'CREATE' || type === 'CREATE2') {
    const creation = decoding.decoder.creation(input);
    return creation === undefined ? undefined : `new ${formatDecoded(creation)}`;
  }
  const call = decoding.decoder.call(input);
  return call === undefined ? undefined : formatDecoded(call);
}

export function outcomeOf(frame: JsonNode | undefined, decoding: Decoding | undefined, output = text(frame, 'output')): string | undefined {
  if (decoding === undefined || output === undefined) return undefined;
  const error = text(frame, 'error');
  if (error !== undefined) {
    const reason = decoding.decoder.revert(output);
    return reason === undefined ? `[${error}]` : `[Revert] ${formatRevert(reason)}`;
  }
  const input = text(frame, 'input') ?? text(at(frame, 'action'), 'input');
  const result = input === undefined ? undefined : decoding.decoder.result(input, output);
  return result === undefined ? undefined : `[Return] ${formatDecoded(result).slice(result.name.length + 1, -1)}`;
}
