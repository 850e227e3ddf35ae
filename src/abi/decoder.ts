// Names and decodes what a trace shows: contracts (by matching their runtime code to artifacts),
// calls and their results, events, revert data. viem does the ABI work; this file only indexes the
// ABIs by selector and topic and picks the first fragment that decodes.
import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  type Hex,
  toEventSelector,
  toFunctionSelector,
} from 'viem';
import type { Artifact, StorageVariable } from './types.ts';
import { BUILTIN_ABIS } from './builtin.ts';

export interface Decoded {
  readonly name: string;
  /** `name: value` pairs in order (names may be empty). */
  readonly args: readonly (readonly [string, unknown])[];
}

/** Solidity's metadata trailer: the last two bytes give the CBOR length before them. */
function withoutMetadata(code: string): string {
  if (code.length < 4) return code;
  const length = Number.parseInt(code.slice(-4), 16);
  const total = (length + 2) * 2;
  // a CBOR map of 1 to 5 entries (solc writes a2 or a3: ipfs/bzzr, solc version, experimental)
  return total <= code.length && /^a[1-5]$/.test(code.slice(-total, -total + 2)) ? code.slice(0, -total) : code;
}

function masked(code: string, immutables: readonly { start: number; length: number }[] | undefined): string {
  if (immutables === undefined || immutables.length === 0) return code;
  const chars = code.split('');
  for (const { start, length } of immutables) for (let i = start * 2; i < (start + length) * 2 && i < chars.length; i++) chars[i] = '0';
  return chars.join('');
}

function named(inputs: readonly { name?: string | undefined }[], values: readonly unknown[] | undefined): [string, unknown][] {
  return (values ?? []).map((v, i) => [inputs[i]?.name ?? '', v]);
}

export class AbiDecoder {
  private readonly functions = new Map<string, { abi: Abi; fn: AbiFunction }[]>();
  private readonly events = new Map<string, { abi: Abi; event: AbiEvent }[]>();
  private readonly errors: Abi = [];
  private readonly codes: { name: string; code: string; immutables?: readonly { start: number; length: number }[] | undefined }[] = [];
  private readonly layouts = new Map<string, readonly StorageVariable[]>();

  constructor(artifacts: readonly Artifact[], builtin = true) {
    // user artifacts first: their fragments win over the built-in table
    for (const a of [...artifacts, ...(builtin ? BUILTIN_ABIS : [])]) this.add(a.abi);
    for (const a of artifacts) {
      if (a.storage !== undefined && !this.layouts.has(a.name)) this.layouts.set(a.name, a.storage);
      if (a.deployedCode !== undefined && a.deployedCode.length > 0) {
        this.codes.push({ name: a.name, code: masked(withoutMetadata(a.deployedCode), a.immutables), immutables: a.immutables });
      }
    }
  }

  private add(abi: Abi): void {
    for (const item of abi) {
      if (item.type === 'function') {
        const key = toFunctionSelector(item);
        const list = this.functions.get(key) ?? [];
        list.push({ abi: [item], fn: item });
        this.functions.set(key, list);
      } else if (item.type === 'event') {
        const key = toEventSelector(item);
        const list = this.events.get(key) ?? [];
        list.push({ abi: [item], event: item });
        this.events.set(key, list);
      } else if (item.type === 'error') {
        (this.errors as unknown as unknown[]).push(item);
      }
    }
  }

  /** The state variables of the contract named `name` (an artifact's), when its artifact has a storage layout. */
  storage(name: string): readonly StorageVariable[] | undefined {
    return this.layouts.get(name);
  }

  /** The artifact whose runtime code is `code` (metadata trailer and immutables ignored). */
  label(code: string): string | undefined {
    const plain = code.replace(/^0x/, '').toLowerCase();
    if (plain.length === 0) return undefined;
    const stripped = withoutMetadata(plain);
    for (const c of this.codes) if (masked(stripped, c.immutables) === c.code) return c.name;
    return undefined;
  }

  call(input: string): Decoded | undefined {
    if (input.length < 10) return undefined;
    for (const { abi, fn } of this.functions.get(input.slice(0, 10).toLowerCase()) ?? []) {
      try {
        const { args } = decodeFunctionData({ abi, data: input as Hex });
        return { name: fn.name, args: named(fn.inputs, args as readonly unknown[] | undefined) };
      } catch {
        // another fragment with this selector may fit
      }
    }
    return undefined;
  }

  result(input: string, output: string): Decoded | undefined {
    if (input.length < 10 || output === '0x') return undefined;
    for (const { abi, fn } of this.functions.get(input.slice(0, 10).toLowerCase()) ?? []) {
      try {
        const value = decodeFunctionResult({ abi, functionName: fn.name, data: output as Hex } as never) as unknown;
        const values = fn.outputs.length === 1 ? [value] : (value as readonly unknown[]);
        return { name: fn.name, args: named(fn.outputs, values) };
      } catch {
        // next
      }
    }
    return undefined;
  }

  event(topics: readonly string[], data: string): Decoded | undefined {
    const [topic0] = topics;
    if (topic0 === undefined) return undefined;
    for (const { abi, event } of this.events.get(topic0.toLowerCase()) ?? []) {
      try {
        const decoded = decodeEventLog({ abi, topics: topics as [Hex, ...Hex[]], data: data as Hex, strict: true });
        const args = decoded.args as Record<string, unknown> | readonly unknown[] | undefined;
        const pairs: [string, unknown][] = event.inputs.map((input, i) => [input.name ?? '', Array.isArray(args) ? args[i] : (args as Record<string, unknown>)[input.name ?? String(i)]]);
        return { name: event.name, args: pairs };
      } catch {
        // ERC-20 and ERC-721 Transfer share a topic and differ in what is indexed
      }
    }
    return undefined;
  }

  /** Error(string), Panic(uint256) or a custom error of the ABIs. */
  revert(data: string): Decoded | undefined {
    if (data.length < 10) return undefined;
    try {
      const { errorName, args } = decodeErrorResult({ abi: this.errors, data: data as Hex });
      const item = (this.errors as readonly { type: string; name?: string; inputs?: readonly { name?: string }[] }[]).find((e) => e.type === 'error' && e.name === errorName);
      return { name: errorName, args: named(item?.inputs ?? [], args as readonly unknown[] | undefined) };
    } catch {
      return undefined;
    }
  }
}
