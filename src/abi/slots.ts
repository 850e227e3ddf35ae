// Names of storage slots in a report and the viewer, and their values as their types read. A state variable's own slot comes from the contract's storage
// layout (solc's storageLayout in its artifact). A mapping's entry lives at keccak256(key . slot),
// nested mappings at keccak256(key2 . keccak256(key1 . slot)); the keys are not in the answer, but
// the addresses it names are the usual ones (senders, callees, accounts, indexed event arguments),
// so every pairing of those with the layout's mapping slots (or, with no layout, slots 0 to 15) is
// hashed once and looked up: `deposits[0x7099…]` instead of a 32-byte hash.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, getAddress, hexToBytes } from 'viem';
import type { StorageVariable } from './types.ts';

/** Addresses of an answer taken as mapping keys at most (each adds a hash per slot and per key pair). */
const MAX_KEYS = 32;
/** Slots tried for mappings when the contract has no storage layout. */
const GUESSED_SLOTS = 16;

export interface SlotName {
  /** `deposits[0x70997970C51812dc3A010C7d01b50e0d17dc79C8]`, `feesCollected`, `slot 3[0x7099…]` */
  readonly name: string;
  /** The value's solc type, when the layout says it. */
  readonly type?: string;
}

/** The addresses `texts` name (JSON texts), the candidate keys of a SlotNamer: as 40-digit hex strings, lower-case, in order; with `padded`, then those in 32-byte words (indexed event arguments). */
export function addressesIn(texts: readonly (string | undefined)[], padded = false): string[] {
  const found = new Set<string>();
  const patterns = padded ? [/"0x([0-9a-f]{40})"/g, /"0x0{24}([0-9a-f]{40})"/g] : [/"0x([0-9a-f]{40})"/g];
  for (const pattern of patterns) {
    for (const text of texts) for (const [, address] of (text ?? '').toLowerCase().matchAll(pattern)) found.add(`0x${address}`);
  }
  return [...found];
}

const word = (n: bigint): Uint8Array => hexToBytes(`0x${n.toString(16).padStart(64, '0')}`);

export class SlotNamer {
  private readonly keys: { text: string; bytes: Uint8Array }[];
  private readonly byLayout = new Map<readonly StorageVariable[] | undefined, Map<string, SlotName>>();

  /** `addresses`: the addresses the answers name (the likeliest first), the candidate keys. */
  constructor(addresses: readonly string[]) {
    const unique = [...new Set(addresses.map((a) => a.toLowerCase()))].slice(0, MAX_KEYS);
    this.keys = unique.map((a) => ({ text: getAddress(a), bytes: hexToBytes(`0x${a.slice(2).padStart(64, '0')}`) }));
  }

  /** The name of `slot` (32-byte hex) in a contract with `layout` (undefined: none known). */
  name(slot: string, layout: readonly StorageVariable[] | undefined): SlotName | undefined {
    let names = this.byLayout.get(layout);
    if (names === undefined) {
      names = this.table(layout);
      this.byLayout.set(layout, names);
    }
    return names.get(slot.toLowerCase());
  }

  private table(layout: readonly StorageVariable[] | undefined): Map<string, SlotName> {
    const names = new Map<string, SlotName>();
    const bases: { label: string; slot: bigint; depth: number; type?: string }[] =
      layout === undefined
        ? Array.from({ length: GUESSED_SLOTS }, (_, i) => ({ label: `slot ${i}`, slot: BigInt(i), depth: 2 }))
        : layout.map((v) => ({ label: v.label, slot: v.slot, depth: v.mappingDepth, type: v.mappingDepth === 0 ? v.type : v.valueType }));
    for (const base of bases) {
      const at = bytesToHex(word(base.slot));
      if (layout !== undefined && base.depth === 0 && !names.has(at)) names.set(at, { name: base.label, ...(base.type ? { type: base.type } : {}) });
      if (base.depth === 0) continue;
      const typed = base.depth === 1 && base.type !== undefined ? { type: base.type } : {};
      for (const k1 of this.keys) {
        const inner = keccak_256(new Uint8Array([...k1.bytes, ...word(base.slot)]));
        const first = `${base.label}[${k1.text}]`;
        names.set(bytesToHex(inner), { name: first, ...typed });
        if (base.depth < 2) continue;
        const deepType = base.depth === 2 && base.type !== undefined ? { type: base.type } : {};
        for (const k2 of this.keys) names.set(bytesToHex(keccak_256(new Uint8Array([...k2.bytes, ...inner]))), { name: `${first}[${k2.text}]`, ...deepType });
      }
    }
    return names;
  }
}

/** A storage word as its solc type reads (integers in decimal, addresses, booleans); undefined for others. */
export function storageValue(word: string, type: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{1,64}$/.test(word)) return undefined;
  const n = BigInt(word);
  if (/^uint\d*$/.test(type)) return n.toString();
  if (/^int(\d*)$/.test(type)) {
    const bits = BigInt(Number(/^int(\d*)$/.exec(type)![1] || 256));
    return (n >= 1n << (bits - 1n) ? n - (1n << bits) : n).toString();
  }
  if (type === 'bool') return n === 0n ? 'false' : 'true';
  if (type === 'address' || type.startsWith('contract ')) return getAddress(`0x${(n & ((1n << 160n) - 1n)).toString(16).padStart(40, '0')}`);
  return undefined;
}
