// The access list a message touches, kept as go-ethereum's AccessListTracer keeps it
// (eth/tracers/logger/access_list_tracer.go v1.17.5): addresses and their slots, keyed by lowercase
// hex, fed the opcodes it looks at as a call reaches them (replay/callExec.ts CallWatch).
import { getActivePrecompiles } from '@ethereumjs/evm';
import type { Common } from '@ethereumjs/common';
import { bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import type { CallStep } from './callExec.ts';
import type { AccessTuple } from './message.ts';
import { OP, stackAddress } from './opcodeHooks.ts';


/** The opcodes the tracer looks at. */
export const ACCESS_LIST_OPCODES: readonly number[] = [
  OP.SLOAD, OP.SSTORE, OP.EXTCODECOPY, OP.EXTCODEHASH, OP.EXTCODESIZE, OP.BALANCE, OP.SELFDESTRUCT,
  OP.DELEGATECALL, OP.CALL, OP.STATICCALL, OP.CALLCODE,
];

/** The precompiles active at `common`'s fork, as unprefixed lowercase hex (vm.ActivePrecompiles). */
export function activePrecompiles(common: Common): string[] {
  return [...getActivePrecompiles(common).keys()];
}

export class AccessListTracker {
  private readonly list = new Map<string, Set<string>>();

  /**
   * Starts from `initial`, skipping the tuples of excluded addresses (NewAccessListTracer);
   * `exclude` holds unprefixed lowercase hex addresses.
   */
  constructor(initial: readonly AccessTuple[], private readonly exclude: ReadonlySet<string>) {
    for (const tuple of initial) {
      const address = bytesToUnprefixedHex(tuple.address);
      if (exclude.has(address)) continue;
      const slots = this.slotsOf(address);
      for (const key of tuple.storageKeys) slots.add(bytesToUnprefixedHex(key));
    }
  }

  /** OnOpcode: the slot of SLOAD/SSTORE in the current contract (excluded or not), the address an opcode names. */
  readonly reached = (step: CallStep): void => {
    const { op, stackSize, top } = step;
    if ((op === OP.SLOAD || op === OP.SSTORE) && stackSize >= 1) {
      this.slotsOf(bytesToUnprefixedHex(step.address)).add(top[0]!.toString(16).padStart(64, '0'));
    }
    const named =
      op === OP.EXTCODECOPY || op === OP.EXTCODEHASH || op === OP.EXTCODESIZE || op === OP.BALANCE || op === OP.SELFDESTRUCT
        ? stackSize >= 1 ? top[0] : undefined
        : op === OP.DELEGATECALL || op === OP.CALL || op === OP.STATICCALL || op === OP.CALLCODE
          ? stackSize >= 5 ? top[1] : undefined
          : undefined;
    if (named === undefined) return;
    const address = bytesToUnprefixedHex(stackAddress(named));
    if (!this.exclude.has(address)) this.slotsOf(address);
  };

  /** Same addresses, and the same slots for each. */
  equals(other: AccessListTracker): boolean {
    if (this.list.size !== other.list.size) return false;
    for (const [address, slots] of this.list) {
      const theirs = other.list.get(address);
      if (theirs === undefined || theirs.size !== slots.size) return false;
      for (const slot of slots) if (!theirs.has(slot)) return false;
    }
    return true;
  }

  /** The list with addresses and, within each, storage keys in ascending byte order (accessList()). */
  accessList(): AccessTuple[] {
    return [...this.list.keys()].sort().map((address) => ({
      address: hexToBytes(`0x${address}`),
      storageKeys: [...this.list.get(address)!].sort().map((key) => hexToBytes(`0x${key}`)),
    }));
  }

  private slotsOf(address: string): Set<string> {
    let slots = this.list.get(address);
    if (slots === undefined) this.list.set(address, (slots = new Set()));
    return slots;
  }
}
