// State read lazily from the upstream node at one block. `StateAt` fetches each account, code and
// slot once and keeps what it fetched (capture writes it out as the pre-state); the state manager is
// ethereumjs's RPCStateManager (its caches and journal) reading through it.
import { RPCStateManager } from '@ethereumjs/statemanager';
import type { Common } from '@ethereumjs/common';
import {
  Account,
  type Address,
  bytesToHex,
  createAccount,
  hexToBytes,
  KECCAK256_NULL,
  KECCAK256_RLP,
  unpadBytes,
} from '@ethereumjs/util';
import { UpstreamError } from '../errors/upstreamError.ts';
import { hexQuantity } from '../encoding/hex.ts';
import type { UpstreamClient } from './client.ts';

interface Proof {
  balance: string;
  nonce: string;
  codeHash: string;
  storageHash: string;
}

/** The upstream's state at block `number`, each value fetched once. */
export class StateAt {
  readonly accounts = new Map<string, Promise<Account>>();
  readonly codes = new Map<string, Promise<Uint8Array>>();
  /** Keyed by address hex, then slot hex (32 bytes). */
  readonly slots = new Map<string, Map<string, Promise<Uint8Array>>>();
  /** Hashes of ancestor blocks BLOCKHASH asked for. */
  readonly blockHashes = new Map<bigint, Promise<Uint8Array>>();
  /** The first upstream failure, kept so a run the EVM aborted reports it. */
  failure: UpstreamError | undefined;
  private proofs = true;

  constructor(private readonly client: UpstreamClient, readonly number: bigint, private readonly keccak: (data: Uint8Array) => Uint8Array) {}

  private get tag(): string {
    return hexQuantity(this.number);
  }

  account(address: Address): Promise<Account> {
    const key = address.toString();
    let value = this.accounts.get(key);
    if (value === undefined) {
      value = this.guard(this.fetchAccount(key));
      this.accounts.set(key, value);
    }
    return value;
  }

  code(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    let value = this.codes.get(key);
    if (value === undefined) {
      value = this.guard(this.client.call<string>('eth_getCode', [key, this.tag]).then((hex) => hexToBytes(hex as `0x${string}`)));
      this.codes.set(key, value);
    }
    return value;
  }

  /** The slot's value without leading zeros, as ethereumjs state managers return it. */
  storage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const key = address.toString();
    let slots = this.slots.get(key);
    if (slots === undefined) this.slots.set(key, (slots = new Map()));
    const slotHex = bytesToHex(slot);
    let value = slots.get(slotHex);
    if (value === undefined) {
      value = this.guard(this.client.call<string>('eth_getStorageAt', [key, slotHex, this.tag]).then((hex) => unpadBytes(hexToBytes(hex as `0x${string}`))));
      slots.set(slotHex, value);
    }
    return value;
  }

  blockHash(n: bigint, blocks: { hashOf(n: bigint): Promise<Uint8Array> }): Promise<Uint8Array> {
    let value = this.blockHashes.get(n);
    if (value === undefined) {
      value = this.guard(blocks.hashOf(n));
      this.blockHashes.set(n, value);
    }
    return value;
  }

  private async fetchAccount(address: string): Promise<Account> {
    if (this.proofs) {
      try {
        const proof = await this.client.call<Proof>('eth_getProof', [address, [], this.tag]);
        return createAccount({
          balance: BigInt(proof.balance),
          nonce: BigInt(proof.nonce),
          codeHash: hexToBytes(proof.codeHash as `0x${string}`),
          storageRoot: hexToBytes(proof.storageHash as `0x${string}`),
        });
      } catch (err) {
        if (!(err instanceof UpstreamError && err.methodMissing)) throw err;
        this.proofs = false; // a node without eth_getProof: read the fields one by one
      }
    }
    const [balance, nonce, code] = await Promise.all([
      this.client.call<string>('eth_getBalance', [address, this.tag]),
      this.client.call<string>('eth_getTransactionCount', [address, this.tag]),
      this.client.call<string>('eth_getCode', [address, this.tag]),
    ]);
    const codeBytes = hexToBytes(code as `0x${string}`);
    // The storage root is unknown without proofs; it only decides CREATE collisions (EIP-7610).
    return createAccount({
      balance: BigInt(balance),
      nonce: BigInt(nonce),
      codeHash: codeBytes.length === 0 ? KECCAK256_NULL : this.keccak(codeBytes),
      storageRoot: KECCAK256_RLP,
    });
  }

  private guard<T>(work: Promise<T>): Promise<T> {
    work.catch((err: unknown) => {
      if (err instanceof UpstreamError) this.failure ??= err;
    });
    return work;
  }
}

/**
 * ethereumjs's RPC state manager, reading through a StateAt. Its caches hold the run's writes on top
 * of what was fetched; `use` moves it to another block and drops them.
 */
export class UpstreamStateManager extends RPCStateManager {
  private reads: StateAt | undefined;
  /** Accounts deleted or (re)created in this run: what the node holds for them no longer applies. */
  private readonly fresh = new Set<string>();

  constructor(common: Common, url: string) {
    super({ provider: url, blockTag: 0n, common });
  }

  use(reads: StateAt): void {
    this.reads = reads;
    this.clearCaches();
    this.fresh.clear();
  }

  private get at(): StateAt {
    if (this.reads === undefined) throw new Error('UpstreamStateManager: no block selected');
    return this.reads;
  }

  override async getAccountFromProvider(address: Address): Promise<Account> {
    return this.at.account(address);
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const cached = this._caches.code?.get(address);
    if (cached !== undefined) return cached.code ?? new Uint8Array(); // a deleted entry: no code
    if (this.fresh.has(address.toString())) return new Uint8Array();
    const code = await this.at.code(address);
    this._caches.code?.put(address, code);
    return code;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const cached = this._caches.storage?.get(address, key);
    if (cached !== undefined) return cached;
    if (this.fresh.has(address.toString())) return new Uint8Array();
    const value = await this.at.storage(address, key);
    this._caches.storage?.put(address, key, value);
    return value;
  }

  // RPCStateManager 10.1.3 keeps deployed code without setting the account's codeHash, so the new
  // contract looks empty (EXTCODEHASH, CREATE collisions, the prestate tracer): set it, as
  // MerkleStateManager.putCode does.
  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    this._caches.code?.put(address, value);
    if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
    await this.modifyAccountFields(address, { codeHash: this.common.customCrypto.keccak256!(value) });
  }

  // RPCStateManager 10.1.3 drops only the cached account: the node's code and storage would come
  // back. A deleted (self-destructed, or touched and empty) account has neither, as in
  // MerkleStateManager.deleteAccount; nor has an account whose storage a CREATE clears.
  override async deleteAccount(address: Address): Promise<void> {
    this._caches.deleteAccount(address);
    this.fresh.add(address.toString());
  }

  override async clearStorage(address: Address): Promise<void> {
    this._caches.storage?.clearStorage(address);
    this.fresh.add(address.toString());
  }

  // RPCStateManager 10.1.3 commits only its account cache, leaving storage and code checkpoints
  // open: a later revert would then undo too little. Commit them all, as MerkleStateManager does.
  override async commit(): Promise<void> {
    this._caches.commit();
  }
}
