// A storage slot's name at a step, from the storage layout of the contract whose storage it is and
// the keccak256 preimages the transaction computed so far: a state variable's slot is its own; a
// mapping's entry is keccak256(key . slot), whose preimage the run saw when the code computed it, so
// `balances[0x7099…]` is read back exactly, nested mappings and all, with no guessing of keys.
import type { StorageVariable } from '../abi/types.ts';
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

/** A namer of slots for step `step`, or undefined when no layout is known there. */
export function slotNamer(trace: DebugTrace, step: number, preimages: ReadonlyMap<string, Uint8Array>): ((slot: bigint) => string | undefined) | undefined {
  const layout = layoutAt(trace, step);
  if (layout === undefined) return undefined;
  const name = (slot: bigint, depth: number): string | undefined => {
    const own = layout.find((v) => v.slot === slot);
    if (own !== undefined) return own.label;
    const preimage = depth < 8 ? preimages.get(slot.toString(16).padStart(64, '0')) : undefined;
    if (preimage === undefined || preimage.length !== 64) {
      // a member of a struct or an array element near a named slot is left unnamed rather than guessed
      return undefined;
    }
    const base = BigInt(`0x${Buffer.from(preimage.subarray(32)).toString('hex')}`);
    const outer = name(base, depth + 1);
    return outer === undefined ? undefined : `${outer}[${keyText(preimage.subarray(0, 32))}]`;
  };
  return (slot) => name(slot, 0);
}
