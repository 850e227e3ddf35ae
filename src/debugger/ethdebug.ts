// Local variables from a compiler's ethdebug/format program (ethdebug.github.io/format, "program",
// "context/variables", "pointer"), solc's experimental `evm.bytecode.ethdebug` and
// `evm.deployedBytecode.ethdebug` outputs. A program lists the code's instructions by byte offset,
// each with a context that holds *after* it runs; a `variables` context names the variables known
// there, each with its type and a pointer to where its value lies. solc 0.8.37's programs give each
// instruction a source range only (`code`), no variables: what this file reads is what the format
// defines, so that a compiler that does locate them is shown, and a step with no variable located
// says so. Read here: variables in a context or a `gather` of contexts; pointers to a stack slot
// (0 the top) or a memory range whose offset and length are numbers; the elementary types. A `pick`
// (chosen at run time), a pointer computed by an expression, or another location is named and
// said to be not read, never guessed.
import { getAddress } from 'viem';

/** A variable as a program's context names it. */
export interface ProgramVariable {
  readonly identifier: string | undefined;
  readonly type: unknown;
  readonly pointer: unknown;
}

export interface EthdebugProgram {
  /** The variables of each instruction's context, by the instruction's byte offset (only those that name any). */
  readonly after: ReadonlyMap<number, readonly ProgramVariable[]>;
  /** The program's own context: what holds before its first instruction. */
  readonly before: readonly ProgramVariable[];
  readonly instructions: number;
}

export interface LocalValue {
  readonly name: string;
  /** `uint256`, `address`, `bytes32`, `string`, or the type's kind. */
  readonly type: string;
  /** The decoded value, or undefined with `note` saying why not. */
  readonly value: string | undefined;
  readonly note?: string | undefined;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The variables a context names: its own `variables`, and those of each context it gathers. */
function variablesOf(context: unknown, out: ProgramVariable[] = []): ProgramVariable[] {
  if (!isObject(context)) return out;
  if (Array.isArray(context['variables'])) {
    for (const v of context['variables']) {
      if (isObject(v)) out.push({ identifier: typeof v['identifier'] === 'string' ? v['identifier'] : undefined, type: v['type'], pointer: v['pointer'] });
    }
  }
  if (Array.isArray(context['gather'])) for (const c of context['gather']) variablesOf(c, out);
  return out;
}

/** A program from a compiler's output; undefined when `json` is not one (no `instructions` array). */
export function readProgram(json: unknown): EthdebugProgram | undefined {
  if (!isObject(json) || !Array.isArray(json['instructions'])) return undefined;
  const after = new Map<number, ProgramVariable[]>();
  for (const instruction of json['instructions']) {
    if (!isObject(instruction) || typeof instruction['offset'] !== 'number') continue;
    const variables = variablesOf(instruction['context']);
    if (variables.length > 0) after.set(instruction['offset'], variables);
  }
  return { after, before: variablesOf(json['context']), instructions: json['instructions'].length };
}

/** A pointer's number: a JSON number or a hex string (`"0x40"`); undefined for an expression. */
function literal(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v)) return Number.parseInt(v, 16);
  return undefined;
}

/** `uint256`, `int8`, `bool`, `address`, `bytes32`, `bytes`, `string`, else the type's kind. */
export function typeName(type: unknown): string {
  if (!isObject(type)) return '?';
  const kind = typeof type['kind'] === 'string' ? type['kind'] : '?';
  if ((kind === 'uint' || kind === 'int') && typeof type['bits'] === 'number') return `${kind}${type['bits']}`;
  if (kind === 'bytes' && typeof type['size'] === 'number') return `bytes${type['size']}`;
  return kind;
}

/** A word of the stack or memory read as `type`; undefined for a type not decoded here. */
function wordAs(type: unknown, word: bigint): string | undefined {
  if (!isObject(type)) return undefined;
  const bits = typeof type['bits'] === 'number' ? BigInt(type['bits']) : 256n;
  switch (type['kind']) {
    case 'uint':
      return (word & ((1n << bits) - 1n)).toString();
    case 'int': {
      const v = word & ((1n << bits) - 1n);
      return (v >= 1n << (bits - 1n) ? v - (1n << bits) : v).toString();
    }
    case 'bool':
      return word === 0n ? 'false' : 'true';
    case 'address':
      return getAddress(`0x${(word & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`);
    case 'bytes': {
      // a fixed-size bytesN lies left-aligned in its word
      if (typeof type['size'] !== 'number') return undefined;
      return `0x${word.toString(16).padStart(64, '0').slice(0, type['size'] * 2)}`;
    }
    default:
      return undefined;
  }
}

const wordOf = (bytes: Uint8Array): bigint => {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
};
const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;

/** What a step's machine holds, as far as a local's pointer may read it. */
export interface MachineState {
  /** Top first. */
  readonly stack: readonly bigint[];
  readonly memory: Uint8Array;
}

/** A variable's value where `state` holds it. */
export function readLocal(variable: ProgramVariable, state: MachineState): LocalValue {
  const name = variable.identifier ?? '(unnamed)';
  const type = typeName(variable.type);
  const no = (note: string): LocalValue => ({ name, type, value: undefined, note });
  const pointer = variable.pointer;
  if (!isObject(pointer)) return no('no pointer: the compiler does not say where it is');
  const location = pointer['location'];
  if (typeof location !== 'string') return no('a pointer of several regions or computed at run time: not read');
  if (location === 'stack') {
    const slot = literal(pointer['slot']);
    if (slot === undefined) return no('a stack slot computed at run time: not read');
    const word = state.stack[slot];
    if (word === undefined) return no(`stack slot ${slot} is past the stack (${state.stack.length} words)`);
    return { name, type, value: wordAs(variable.type, word) ?? `0x${word.toString(16)}` };
  }
  if (location === 'memory') {
    const offset = literal(pointer['offset']);
    const length = literal(pointer['length']);
    if (offset === undefined || length === undefined) return no('a memory range computed at run time: not read');
    if (offset + length > state.memory.length) return no(`memory ${offset}..${offset + length} is past the memory (${state.memory.length} bytes)`);
    const bytes = state.memory.subarray(offset, offset + length);
    if (isObject(variable.type) && variable.type['kind'] === 'string') return { name, type, value: JSON.stringify(new TextDecoder().decode(bytes)) };
    const decoded = length === 32 ? wordAs(variable.type, wordOf(bytes)) : undefined;
    return { name, type, value: decoded ?? hex(bytes) };
  }
  return no(`its value is in ${location}: not read here`);
}
