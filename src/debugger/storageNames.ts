// A storage slot's name at a step, from the storage layout of the contract whose storage it is and
// the keccak256 preimages the transaction computed so far: a state variable's slot is its own; a
// mapping's entry is keccak256(key . slot), whose preimage the run saw when the code computed it, so
// `balances[0x7099…]` is read back exactly, nested mappings and all, with no guessing of keys. Inside
// a struct or an array (solc's storageLayout types) a slot is a member or an element: `book.volume`,
// `positions[0x7099…].amount`, `queue[3]`, `flags[0..31]` (packed), `queue.length`; a dynamic array's
// elements from keccak256 of its slot, as the run computed it. Only the first 64 slots of a value are
// searched; past them, and in a `bytes` or `string`'s data, a slot stays unnamed.
import type { StorageInside, StorageMember, StorageVariable } from '../abi/types.ts';
import type { DebugTrace } from './debugTrace.ts';

/** The layout of the storage a step works on: its code's contract, or for a library's DELEGATECALL, the caller's. */
function layoutAt(trace: DebugTrace, step: number): readonly StorageVariable[] | undefined {
  let index = trace.steps.frame[step]!;
  for (let hops = 0; index >= 0 && hops < 64; hops++) {
    const layout = trace.frames.get(index)?.contract?.storage;
    const frame = trace.tx.frames[index];
    if (layout !== undefined && layout.length > 0) return layout;
    if (frame === undefined || (frame.kind !== 'DELEGATECALL' && frame.kind !== 'CALLCODE')) return undefined;
    index = frame.parent;
  }
  return undefined;
}

function keyText(key: Uint8Array): string {
  const n = BigInt(`0x${Buffer.from(key).toString('hex') || '0'}`);
  // an address-shaped key (12 zero bytes, then 20) reads as an address, a small number as a number
  if (n < 1n << 64n) return n.toString();
  if (n < 1n << 160n) return `0x${n.toString(16).padStart(40, '0')}`;
  return `0x${n.toString(16).padStart(64, '0')}`;
}

/** Slots searched into a struct or array (a member, an element) from where it starts. */
const MAX_INSIDE = 64;

/** A value's place in storage: its name, the mappings still to go through, what lies inside it. */
interface Place {
  readonly label: string;
  readonly mappings: number;
  readonly inside: StorageInside | undefined;
}

/** The name of the slot `offset` slots past the start of `place`'s value: a struct member, a static array's element, a dynamic array's length. */
function within(place: Place, offset: number): string | undefined {
  const inside = place.mappings > 0 ? undefined : place.inside;
  if (inside === undefined) return offset === 0 ? place.label : undefined;
  if (inside.kind === 'struct') {
    // the member that starts last at or before the slot (a member that spans slots holds the rest)
    let member: StorageMember | undefined;
    for (const m of inside.members) if (m.slot <= offset && (member === undefined || m.slot > member.slot)) member = m;
    if (member === undefined) return undefined;
    const inner: Place = { label: `${place.label}.${member.label}`, mappings: 0, inside: member.inside };
    return within(inner, offset - member.slot);
  }
  if (inside.kind === 'dynamic') return offset === 0 ? `${place.label}.length` : undefined;
  return element(place.label, inside, offset, inside.length);
}

/** An array's element `offset` slots into its elements (several to a slot below 32 bytes: `a[4..7]`). */
function element(label: string, inside: Extract<StorageInside, { kind: 'static' | 'dynamic' }>, offset: number, length: number | undefined): string | undefined {
  if (inside.bytes < 32) {
    const perSlot = Math.floor(32 / inside.bytes);
    const first = offset * perSlot;
    const last = Math.min(first + perSlot, length ?? Number.MAX_SAFE_INTEGER) - 1;
    if (last < first) return undefined;
    return first === last ? `${label}[${first}]` : `${label}[${first}..${last}]`;
  }
  const slots = Math.ceil(inside.bytes / 32);
  const index = Math.floor(offset / slots);
  if (length !== undefined && index >= length) return undefined;
  return within({ label: `${label}[${index}]`, mappings: 0, inside: inside.element }, offset % slots);
}

const slotKey = (slot: bigint): string => slot.toString(16).padStart(64, '0');

/** A namer of slots for step `step`, or undefined when no layout is known there. */
export function slotNamer(trace: DebugTrace, step: number, preimages: ReadonlyMap<string, Uint8Array>): ((slot: bigint) => string | undefined) | undefined {
  const layout = layoutAt(trace, step);
  if (layout === undefined) return undefined;
  /** The value that starts at `slot` (a state variable, a mapping's entry), for a mapping's or an array's base. */
  const placeAt = (slot: bigint, depth: number): Place | undefined => {
    const own = layout.find((v) => v.slot === slot);
    if (own !== undefined) return { label: own.label, mappings: own.mappingDepth, inside: own.inside };
    const preimage = depth < 8 ? preimages.get(slotKey(slot)) : undefined;
    if (preimage === undefined || preimage.length !== 64) return undefined;
    const outer = placeAt(BigInt(`0x${Buffer.from(preimage.subarray(32)).toString('hex')}`), depth + 1);
    if (outer === undefined || outer.mappings === 0) return undefined;
    return { label: `${outer.label}[${keyText(preimage.subarray(0, 32))}]`, mappings: outer.mappings - 1, inside: outer.inside };
  };
  const name = (slot: bigint): string | undefined => {
    // a state variable, or inside one that starts a few slots before
    let variable: StorageVariable | undefined;
    for (const v of layout) if (v.slot <= slot && slot - v.slot < BigInt(MAX_INSIDE) && (variable === undefined || v.slot > variable.slot)) variable = v;
    if (variable !== undefined) {
      const named = within({ label: variable.label, mappings: variable.mappingDepth, inside: variable.inside }, Number(slot - variable.slot));
      if (named !== undefined) return named;
    }
    // a mapping's entry (keccak256(key . slot)) or a dynamic array's elements (from keccak256(slot)), a few slots before
    for (let k = 0; k < MAX_INSIDE && BigInt(k) <= slot; k++) {
      const preimage = preimages.get(slotKey(slot - BigInt(k)));
      if (preimage === undefined) continue;
      if (preimage.length === 64) {
        const entry = placeAt(slot - BigInt(k), 0);
        return entry === undefined ? undefined : within(entry, k);
      }
      if (preimage.length === 32) {
        const array = placeAt(BigInt(`0x${Buffer.from(preimage).toString('hex')}`), 0);
        const inside = array?.mappings === 0 ? array.inside : undefined;
        return inside?.kind === 'dynamic' ? element(array!.label, inside, k, undefined) : undefined;
      }
    }
    return undefined;
  };
  return name;
}
