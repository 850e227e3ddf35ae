// Names and decodes what a trace shows: contracts (by matching their runtime code to artifacts),
// creations and their constructor's arguments (by matching init code to creation code), calls and
// their results, events, revert data. viem does the ABI work; this file only indexes the ABIs by
// selector and topic and picks the first fragment that decodes.
import {
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  decodeAbiParameters,
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
import { type CreationPattern, creationPattern, linkedRanges, masked, startsWithCreation, withoutMetadata } from './bytecode.ts';

export interface Decoded {
  readonly name: string;
  /** `name: value` pairs in order (names may be empty). */
  readonly args: readonly (readonly [string, unknown])[];
}

function named(inputs: readonly { name?: string | undefined }[], values: readonly unknown[] | undefined): [string, unknown][] {
  return (values ?? []).map((v, i) => [inputs[i]?.name ?? '', v]);
}

export class AbiDecoder {
  private readonly functions = new Map<string, { abi: Abi; fn: AbiFunction }[]>();
  private readonly events = new Map<string, { abi: Abi; event: AbiEvent }[]>();
  private readonly errors: Abi = [];
  private readonly codes: { name: string; code: string; immutables?: readonly { start: number; length: number }[] | undefined }[] = [];
  /** Longest first: a creation code that another begins with (the same contract and more) must not take its init codes. */
  private readonly creations: { name: string; pattern: CreationPattern; inputs: readonly AbiParameter[] }[] = [];
  private readonly layouts = new Map<string, readonly StorageVariable[]>();

  constructor(artifacts: readonly Artifact[], builtin = true) {
    // user artifacts first: their fragments win over the built-in table
    for (const a of [...artifacts, ...(builtin ? BUILTIN_ABIS : [])]) this.add(a.abi);
    for (const a of artifacts) {
      if (a.storage !== undefined && !this.layouts.has(a.name)) this.layouts.set(a.name, a.storage);
      if (a.deployedCode !== undefined && a.deployedCode.length > 0) {
        // linked libraries' addresses and a library's own are left out like immutables
        const ranges = [...(a.immutables ?? []), ...linkedRanges(a.deployedCode)];
        this.codes.push({ name: a.name, code: masked(withoutMetadata(a.deployedCode), ranges), immutables: ranges });
      }
      if (a.creationCode !== undefined && a.creationCode.length > 0) {
        const ctor = a.abi.find((item) => item.type === 'constructor');
        this.creations.push({ name: a.name, pattern: creationPattern(a.creationCode), inputs: ctor?.inputs ?? [] });
      }
    }
    this.creations.sort((x, y) => y.pattern.length - x.pattern.length);
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

  /**
   * A creation's init code (`input`) as the artifact's name and its constructor's arguments (none
   * when the constructor takes none), when an artifact's creation code begins it and the rest decodes.
   */
  creation(input: string): Decoded | undefined {
    const init = input.replace(/^0x/, '').toLowerCase();
    for (const c of this.creations) {
      if (!startsWithCreation(init, c.pattern)) continue;
      if (c.inputs.length === 0) return { name: c.name, args: [] };
      try {
        const values = decodeAbiParameters(c.inputs, `0x${init.slice(c.pattern.length)}`);
        return { name: c.name, args: named(c.inputs, values) };
      } catch {
        // not its arguments: a shorter creation code may fit
      }
    }
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
