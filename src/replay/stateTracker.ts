// First-touch snapshots of accounts and slots for one transaction (go-ethereum prestate.go
// lookupAccount/lookupStorage), and their values at transaction end. Part of the recorder.
import type { TypedTransaction } from '@ethereumjs/tx';
import type { StateManagerInterface } from '@ethereumjs/common';
import {
  Address,
  bigIntToBytes,
  bytesToBigInt,
  bytesToUnprefixedHex,
  eoaCode7702RecoverAuthority,
  equalsBytes,
  KECCAK256_NULL,
  setLengthLeft,
} from '@ethereumjs/util';
import type { AccountState, StateLog, TouchedAccount } from '../trace/types.ts';

const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00);

export class StateTracker {
  private readonly accounts = new Map<string, TouchedAccount>();
  private readonly selfDestructed = new Set<string>();
  private readonly created = new Set<string>();

  /** @param enabled false: nothing is looked up and the log stays empty (no tracer needs it). */
  constructor(private readonly sm: StateManagerInterface, private readonly eip6780: boolean, private readonly enabled = true) {}

  async lookupAccount(address: Uint8Array): Promise<TouchedAccount | undefined> {
    if (!this.enabled) return undefined;
    const key = bytesToUnprefixedHex(address);
    let touched = this.accounts.get(key);
    if (touched === undefined) {
      const created: TouchedAccount = { address, pre: await this.readAccount(address), preStorage: new Map(), post: undefined, postStorage: new Map(), existsAfter: false };
      this.accounts.set(key, created);
      return created;
    }
    return touched;
  }

  async lookupStorage(address: Uint8Array, slot: bigint): Promise<void> {
    const touched = await this.lookupAccount(address);
    if (touched === undefined) return;
    const key = slot.toString(16).padStart(64, '0');
    if (touched.preStorage.has(key)) return;
    touched.preStorage.set(key, await this.readSlot(address, key));
  }

  /** Prague: a call into an account carrying a delegation designator also touches the delegate. */
  async lookupDelegationTarget(address: Uint8Array, active: boolean): Promise<void> {
    if (!active || !this.enabled) return;
    await this.lookupAccount(address);
    // The code now, not at first touch: an authorization earlier in the tx may have set it.
    const target = delegationTarget(await this.sm.getCode(new Address(address)));
    if (target !== undefined) await this.lookupAccount(target);
  }

  /** Tx start: every EIP-7702 authority that recovers, and the recipient's delegation target. */
  async lookupAuthorities(tx: TypedTransaction, active: boolean): Promise<void> {
    if (!active || !this.enabled) return;
    const list = (tx as { authorizationList?: unknown[] }).authorizationList;
    for (const auth of list ?? []) {
      try {
        const authority = eoaCode7702RecoverAuthority(auth as Parameters<typeof eoaCode7702RecoverAuthority>[0]);
        await this.lookupAccount(authority.bytes);
      } catch {
        // An authorization that does not recover is skipped, as go-ethereum skips it.
      }
    }
    if (tx.to !== undefined) await this.lookupDelegationTarget(tx.to.bytes, true);
  }

  markCreated(address: Uint8Array): void {
    this.created.add(bytesToUnprefixedHex(address));
  }

  markSelfDestructed(address: Uint8Array): void {
    this.selfDestructed.add(bytesToUnprefixedHex(address));
  }

  /** Reads every touched account and slot as it is at transaction end. */
  async finish(): Promise<void> {
    for (const [, touched] of this.accounts) {
      touched.post = await this.readAccount(touched.address);
      touched.existsAfter = (await this.sm.getAccount(new Address(touched.address))) !== undefined;
      for (const slot of touched.preStorage.keys()) {
        touched.postStorage.set(slot, await this.readSlot(touched.address, slot));
      }
    }
  }

  log(): StateLog {
    return { accounts: this.accounts, selfDestructed: this.selfDestructed, created: this.created, eip6780: this.eip6780 };
  }

  private async readAccount(address: Uint8Array): Promise<AccountState> {
    const addr = new Address(address);
    const account = await this.sm.getAccount(addr);
    if (account === undefined) {
      return { balance: 0n, nonce: 0n, code: new Uint8Array(), codeHash: KECCAK256_NULL, empty: true };
    }
    const hasCode = !equalsBytes(account.codeHash, KECCAK256_NULL);
    const code = hasCode ? await this.sm.getCode(addr) : new Uint8Array();
    return {
      balance: account.balance,
      nonce: account.nonce,
      code,
      codeHash: account.codeHash,
      empty: account.nonce === 0n && account.balance === 0n && !hasCode,
    };
  }

  private async readSlot(address: Uint8Array, slotHex: string): Promise<bigint> {
    const value = await this.sm.getStorage(new Address(address), setLengthLeft(bigIntToBytes(BigInt('0x' + slotHex)), 32));
    return value.length === 0 ? 0n : bytesToBigInt(value);
  }
}

export function delegationTarget(code: Uint8Array): Uint8Array | undefined {
  if (code.length !== 23 || !equalsBytes(code.subarray(0, 3), DELEGATION_PREFIX)) return undefined;
  return code.slice(3);
}
