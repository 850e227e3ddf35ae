// The shapes of tracing answers, as headings a person recognises: a callTracer frame by its path
// through the call tree (`CALL Vault.deposit(amount: 5) › CALL Token.transferFrom(…)`), a prestate
// account by address and name, a Parity trace by its traceAddress, a log by its index. Names and
// calls are decoded when ABIs were given. Pure functions of parsed JSON nodes.
import type { AbiDecoder } from '../abi/decoder.ts';
import { formatDecoded, formatRevert } from '../abi/format.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { member } from './jsonText.ts';
import type { PathStep } from './types.ts';
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

/** `0xe7f1…0512`: enough of an address to tell it apart in a heading. */
export const shortAddress = (address: string): string => (address.length === 42 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address);

/** `0x1a2b3c4d…`: a hash in a heading. */
export const shortHash = (hash: string): string => (hash.length > 12 ? `${hash.slice(0, 10)}…` : hash);

/** An address as a heading shows it: the contract's name with the short address, or the short address. */
export function who(address: string, decoding: Decoding | undefined): string {
  const name = decoding?.labels.get(address.toLowerCase());
  return name === undefined ? shortAddress(address) : `${name}(${shortAddress(address)})`;
}

/** `CALL Vault.deposit(amount: 5)` / `CALL 0xe7f1…0512` / `CREATE Receipt(0x5fbd…)`: one frame of a call tree. */
export function frameLabel(frame: JsonNode | undefined, decoding: Decoding | undefined): string {
  const type = text(frame, 'type') ?? 'frame';
  const to = text(frame, 'to');
  const target = to === undefined ? '' : ` ${who(to, decoding)}`;
  if (type === 'CREATE' || type === 'CREATE2' || type === 'SELFDESTRUCT') return `${type}${target}`;
  const input = text(frame, 'input');
  const call = input === undefined ? undefined : decoding?.decoder.call(input);
  if (call === undefined) return `${type}${target}`;
  const name = to === undefined ? undefined : decoding?.labels.get(to.toLowerCase());
  return `${type} ${name ?? (to === undefined ? '?' : shortAddress(to))}.${formatDecoded(call)}`;
}

/** `[0, 1] CALL Vault(0x…)`: a Parity flat trace by its traceAddress, type and callee. */
export function traceLabel(trace: JsonNode | undefined, decoding: Decoding | undefined): string {
  const address = at(trace, 'traceAddress');
  const path = address?.t === 'array' ? `[${address.items.map((i) => i.raw).join(', ')}]` : '[?]';
  const action = at(trace, 'action');
  const type = text(trace, 'type') ?? '?';
  const kind = type === 'call' ? (text(action, 'callType') ?? 'call') : type;
  const to = text(action, 'to') ?? text(at(trace, 'result'), 'address') ?? text(action, 'address') ?? text(action, 'author');
  const input = text(action, 'input');
  const call = input === undefined || type !== 'call' ? undefined : decoding?.decoder.call(input);
  const target = to === undefined ? '' : ` ${who(to, decoding)}`;
  return `trace ${path} ${kind.toUpperCase()}${target}${call === undefined ? '' : `.${formatDecoded(call)}`}`;
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
