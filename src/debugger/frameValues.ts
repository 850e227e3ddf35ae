// The Solidity call stack at a step with its values: an external frame's arguments decoded from its
// calldata with the contract's ABI (a creation's from the constructor arguments after its code), an
// internal function's from the stack as it was entered, where solc's legacy code generator leaves
// them (the last argument on top); its return values as it returns (below the return address of its
// `o` jump). A value the stack does not hold (a code generator that keeps them elsewhere, via-IR)
// is said to be not recoverable rather than guessed.
import { type AbiFunction, type AbiParameter, decodeAbiParameters, decodeFunctionData, type Hex } from 'viem';
import { storageValue } from '../abi/slots.ts';
import type { Variable } from './builds.ts';
import { shownNodes } from './callStack.ts';
import type { DebugTrace } from './debugTrace.ts';
import { modifierAt } from './debugTrace.ts';

export interface NamedValue {
  readonly name: string;
  readonly type: string;
  readonly value: string;
}

export interface FrameValues {
  /** `Vault.withdraw` */
  readonly label: string;
  readonly kind: 'external' | 'internal' | 'modifier';
  /** Its arguments; undefined where they cannot be read (the note says why). */
  readonly args: readonly NamedValue[] | undefined;
  /** Its return values, at the step where it returns. */
  readonly returns?: readonly NamedValue[] | undefined;
  readonly note?: string | undefined;
}

const MASK = (bits: number): bigint => (1n << BigInt(bits)) - 1n;

/** A stack word as its solc type reads. */
export function wordAs(type: string, word: bigint): string {
  const t = type.replace(/ (payable)$/, '');
  let m: RegExpExecArray | null;
  // an integer's bits past its size are the stack's (a negative int8 is sign-extended): cut, then read as a stored one
  if ((m = /^u?int(\d*)$/.exec(t)) !== null) return storageValue(`0x${(word & MASK(Number(m[1] || 256))).toString(16)}`, t)!;
  if (t === 'address' || t.startsWith('contract ')) return `0x${(word & MASK(160)).toString(16).padStart(40, '0')}`;
  if (t === 'bool') return storageValue(`0x${word.toString(16)}`, t)!;
  if ((m = /^bytes(\d+)$/.exec(t)) !== null) return `0x${word.toString(16).padStart(64, '0').slice(0, Number(m[1]) * 2)}`;
  if (t.startsWith('enum ')) return word.toString();
  if (/ memory$/.test(t)) return `(in memory at 0x${word.toString(16)})`;
  if (/ storage (ref|pointer)$/.test(t)) return `(in storage at slot 0x${word.toString(16)})`;
  return `0x${word.toString(16)}`;
}

/** Stack words a value of this type takes: two for a dynamic calldata value (offset and length) and an external function. */
function words(type: string): number {
  return (/ calldata$/.test(type) && !/^(uint|int|address|bool|bytes\d)/.test(type)) || /^function .*external/.test(type) ? 2 : 1;
}

/** Values laid on the stack in order, the last on top: `stack` top first. */
function fromStack(vars: readonly Variable[], stack: readonly bigint[], skip = 0): NamedValue[] | undefined {
  const total = vars.reduce((n, v) => n + words(v.type), 0);
  if (total + skip > stack.length) return undefined;
  let at = skip + total;
  return vars.map((v) => {
    at -= words(v.type);
    const word = stack[at]!;
    return { name: v.name, type: v.type, value: words(v.type) === 2 ? `(calldata at 0x${word.toString(16)}, length ${stack[at + 1]})` : wordAs(v.type, word) };
  });
}

function formatted(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(formatted).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([k, v]) => `${k}: ${formatted(v)}`).join(', ')}}`;
  return String(value);
}

function decoded(inputs: readonly AbiParameter[], values: readonly unknown[]): NamedValue[] {
  return inputs.map((p, k) => ({ name: p.name ?? '', type: p.type, value: formatted(values[k]) }));
}

/** An external frame's arguments from its calldata (or constructor arguments). */
function externalArgs(trace: DebugTrace, frameIndex: number): { args: NamedValue[] | undefined; note?: string } {
  const frame = trace.frames.get(frameIndex);
  const contract = frame?.contract;
  const input = trace.tx.frames[frameIndex]?.input;
  if (contract === undefined || input === undefined) return { args: undefined, note: 'no artifact names this contract' };
  const data = `0x${Buffer.from(input).toString('hex')}` as Hex;
  try {
    if (frame!.kind === 'creation') {
      const constructor = contract.abi.find((item) => item.type === 'constructor') as { inputs: readonly AbiParameter[] } | undefined;
      const codeLength = (contract.creation?.object.length ?? 0) / 2;
      if (constructor === undefined || constructor.inputs.length === 0) return { args: [] };
      const args = `0x${Buffer.from(input.subarray(codeLength)).toString('hex')}` as Hex;
      return { args: decoded(constructor.inputs, decodeAbiParameters(constructor.inputs, args)) };
    }
    if (input.length < 4) return { args: [] };
    const { functionName, args } = decodeFunctionData({ abi: contract.abi, data });
    const fn = contract.abi.find((item) => item.type === 'function' && item.name === functionName) as AbiFunction;
    return { args: decoded(fn.inputs, args ?? []) };
  } catch {
    return { args: undefined, note: 'its calldata does not decode with the ABI (a library function with storage arguments, or another contract)' };
  }
}

/**
 * The call stack at step `i`, outermost first, with values; `stack` is the step's own stack (top
 * first) when known, for the return values of a function returning at this step.
 */
export function frameValues(trace: DebugTrace, i: number, stack?: readonly bigint[]): FrameValues[] {
  const nodes = trace.stacks.nodes;
  const innermost = trace.steps.node[i]!;
  const viaIr = trace.frames.get(trace.steps.frame[i]!)?.contract?.build.viaIR === true;
  // the innermost function returns here when this is its `o` jump
  const frame = trace.frames.get(trace.steps.frame[i]!);
  const returning = frame?.source?.at(trace.steps.pc[i]!)?.jump === 'o' && trace.steps.op[i] === 0x56 && stack !== undefined && !viaIr;
  const out = shownNodes(trace, innermost).map(({ node: n, label, folded }): FrameValues => {
    const node = nodes[n]!;
    // a public function's body returns as its frame's own function (the node folded into it)
    const own = folded === innermost ? nodes[folded]! : node;
    const returns = returning && (n === innermost || folded === innermost) && own.def !== undefined ? fromStack(own.def.returns, stack!, 1) : undefined;
    const withReturns = returns !== undefined ? { returns } : {};
    if (node.internal === undefined) return { label, kind: 'external', ...externalArgs(trace, node.frame), ...withReturns };
    const args = viaIr ? undefined : fromStack(node.def!.parameters, node.stackAtEntry ?? []);
    return {
      label, kind: 'internal', args, ...withReturns,
      ...(args === undefined ? { note: viaIr ? 'not recoverable: built with via-IR, whose code keeps arguments elsewhere' : 'not recoverable from the stack' } : {}),
    };
  });
  const modifier = modifierAt(trace, i);
  if (modifier !== undefined) out.push({ label: `${modifier.contract}.${modifier.name}`, kind: 'modifier', args: undefined, note: 'a modifier\'s code is inlined: its arguments are not on the stack' });
  return out;
}
