// The replay's state manager: ethereumjs's MerkleStateManager, whose caches, checkpoints and journal
// the VM drives unchanged, with its trie work done by StateTrie. It reads a state in one of two ways:
// - by trie, when the database holds the root's nodes: the load's latest state, and a state written
//   out for a root to be computed (scratch). A flush writes the accounts and slots changed since
//   the last one as one batch per trie; during the load it also records them in the chain's
//   StateHistory, and the nodes no longer reachable from the latest root are pruned now and then.
// - by history, for a root the StateHistory knows and the database does not hold (every block's
//   state once the load is done): reads that miss the caches are a lookup of the key's version.
//   A flush keeps its writes in the caches (no root is computed); asking for the root writes the
//   whole state of that version into the database first (StateHistory.materialize), inside scratch.
// Both tries write the same nodes to the same database, so proofs, dumps and the states made for
// calls (messageState) read this state as their own.
import { RLP } from '@ethereumjs/rlp';
import type { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, CODEHASH_PREFIX, MerkleStateManager } from '@ethereumjs/statemanager';
import type { Common } from '@ethereumjs/common';
import { Account, type Address, bytesToUnprefixedHex, concatBytes, createAccountFromRLP, createAddressFromString, equalsBytes, unpadBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { NodeStore } from './nodeStore.ts';
import { type RlpItem, rlpItemInto } from './rlpItem.ts';
import { StateTrie, type TrieWrite } from './stateTrie.ts';
import type { StateHistory } from './stateHistory.ts';

interface CheckpointLayers {
  readonly checkpoints: readonly { readonly keyValueMap: Map<string, Uint8Array | undefined> }[];
  readonly db: { _database: NodeStore };
}

/**
 * The part of js-sdsl's OrderedMap that ethereumjs's account, storage and code caches use, on a
 * Map: those caches never iterate in key order, and the red-black tree's string comparisons were a
 * twentieth of a load. Like the ordered map, it evicts nothing.
 */
class MapStore<V> {
  private readonly map = new Map<string, V>();
  getElementByKey(key: string): V | undefined {
    return this.map.get(key);
  }
  setElement(key: string, value: V): number {
    this.map.set(key, value);
    return this.map.size;
  }
  eraseElementByKey(key: string): boolean {
    return this.map.delete(key);
  }
  size(): number {
    return this.map.size;
  }
  clear(): void {
    this.map.clear();
  }
}

/** Accounts (or accounts' storages) the caches may hold between a load's blocks before they are cleared. */
const KEEP_CACHED = 16_384;

/** ethereumjs's caches (Caches, ordered-map kind) kept in MapStores. */
export function replayCaches(): Caches {
  const caches = new Caches();
  for (const cache of [caches.account, caches.storage, caches.code]) {
    if (cache?._orderedMapCache !== undefined) (cache as { _orderedMapCache: unknown })._orderedMapCache = new MapStore();
  }
  return caches;
}

/** Accounts decoded, by the RLP bytes they were decoded from (cache entries and trie values are never changed in place). */
const decodedAccounts = new WeakMap<Uint8Array, Account>();

/**
 * A new Account of the RLP, as createAccountFromRLP makes it: MerkleStateManager decodes the cached
 * RLP on every getAccount (the EVM asks for the same few accounts a dozen times a message), and
 * RLP-decoding its integers went through hex strings. The decoded fields are kept per RLP and
 * copied out, the byte fields too, since the caller may change the account it gets.
 */
function accountFromRLP(rlp: Uint8Array): Account {
  let decoded = decodedAccounts.get(rlp);
  if (decoded === undefined) decodedAccounts.set(rlp, (decoded = createAccountFromRLP(rlp)));
  return new Account(decoded.nonce, decoded.balance, decoded.storageRoot.slice(), decoded.codeHash.slice());
}

export class ReplayStateManager extends MerkleStateManager {
  private readonly tries: StateTrie;
  private readonly hash: (data: Uint8Array) => Uint8Array;
  /** While scratch() runs: the keys it added to the database, taken out again when it ends. */
  private added: Set<string> | undefined;
  /** The chain's state by version (shared with the message states made from this one). */
  private history: StateHistory | undefined;
  /** The version read by history; undefined while the state is read by trie. */
  private version: number | undefined;
  /** The trie nodes below which the load does not prune the database (tests set it lower). */
  static pruneMinimum = 200_000;
  /** The trie nodes at which the load next prunes the database (prune). */
  private pruneAt = ReplayStateManager.pruneMinimum;

  constructor(
    opts: { readonly common: Common; readonly caches: Caches; readonly trie?: MerklePatriciaTrie },
    hash: (data: Uint8Array) => Uint8Array,
    shared?: { readonly tries: StateTrie; readonly history: StateHistory | undefined; readonly version: number | undefined },
  ) {
    super(opts);
    this.hash = hash;
    if (shared !== undefined) {
      this.tries = shared.tries;
      this.history = shared.history;
      this.version = shared.version;
      return;
    }
    const layers = this._trie.database() as unknown as CheckpointLayers;
    layers.db._database = new NodeStore();
    // the database as it is now: a snapshot's map may take the place of the first (useDatabase)
    const read = (key: string): Uint8Array | undefined => {
      for (let i = layers.checkpoints.length - 1; i >= 0; i--) {
        const value = layers.checkpoints[i]!.keyValueMap.get(key);
        if (value !== undefined) return value;
      }
      const value = layers.db._database.get(key);
      return typeof value === 'string' ? unprefixedHexToBytes(value) : value;
    };
    this.tries = new StateTrie(hash, read, (key, value) => {
      const base = layers.db._database;
      if (this.added !== undefined && !base.has(key)) this.added.add(key);
      base.set(key, value);
    });
  }

  /** The root of the empty trie. */
  get emptyRoot(): Uint8Array {
    return this.tries.emptyRoot;
  }

  /** Reads the states the database does not hold from `history`, which the load fills (StateHistory.begin…commit). */
  useHistory(history: StateHistory): void {
    this.history = history;
  }

  /** The version of `root` when it is read by history (the database does not hold its nodes). */
  private versionFor(root: Uint8Array): number | undefined {
    if (this.history === undefined || equalsBytes(root, this.tries.emptyRoot) || this.database().has(bytesToUnprefixedHex(root))) return undefined;
    return this.history.versionOf(root);
  }

  override async setStateRoot(stateRoot: Uint8Array, clearCache = true): Promise<void> {
    const version = this.versionFor(stateRoot);
    // the writes a run by history kept in the caches go with them, and with their diffs at every
    // checkpoint level (a cache's clear keeps its diffs, which the next flush would read): the old
    // flush wrote them to the trie it was leaving, a run by history has none to write them to
    if (this.version !== undefined || version !== undefined) {
      for (const cache of [this._caches?.account, this._caches?.storage, this._caches?.code] as unknown as ({ _diffCache: Map<string, unknown>[] } | undefined)[]) {
        if (cache !== undefined) cache._diffCache = cache._diffCache.map(() => new Map());
      }
    }
    if (version === undefined) {
      this.version = undefined;
      return super.setStateRoot(stateRoot, clearCache);
    }
    this.version = version;
    this._trie.root(stateRoot);
    if (clearCache) this._caches?.clear();
    this._storageTries = {};
  }

  override async hasStateRoot(root: Uint8Array): Promise<boolean> {
    return this.versionFor(root) !== undefined || super.hasStateRoot(root);
  }

  /**
   * The root: read by history, the state of its version is written into the database first (the
   * caller's scratch takes it out again) and the writes kept in the caches are then flushed onto it.
   */
  override async getStateRoot(): Promise<Uint8Array> {
    if (this.version !== undefined) {
      if (this.added === undefined) throw new Error('a state read by history has a root only inside scratch()');
      const root = this.history!.materialize(this.version, this.tries);
      this._trie.root(root);
      this.version = undefined;
    }
    return super.getStateRoot();
  }

  /**
   * During the load, every so often: drops the database's nodes that the latest root no longer
   * reaches (its code stays), when the database has grown to twice what was left the last time.
   */
  prune(): void {
    // ethereumjs's caches evict nothing, and a load never sets a root: they would hold every account
    // and slot the chain ever touched, decoded; between blocks (everything flushed) they may go
    if ((this._caches?.account?.size() ?? 0) > KEEP_CACHED || (this._caches?.storage?.size() ?? 0) > KEEP_CACHED) this._caches?.clear();
    const db = this.database();
    if (db.nodes < this.pruneAt) return;
    db.startMarking();
    const item: RlpItem = { head: 0, start: 0, end: 0, list: false };
    const empty = this.tries.emptyRoot;
    this.tries.reachable(this._trie.root(), (hash, at, span) => db.mark(hash, at, span), (buf, start) => {
      // an account's RLP: [nonce, balance, storageRoot, codeHash]; read in place, as a million accounts are
      rlpItemInto(buf, start, item);
      rlpItemInto(buf, item.start, item);
      rlpItemInto(buf, item.end, item);
      rlpItemInto(buf, item.end, item);
      if (item.end - item.start !== 32) return undefined;
      let same = true;
      for (let k = 0; k < 32 && same; k++) same = buf[item.start + k] === empty[k];
      return same ? undefined : buf.subarray(item.start, item.end);
    });
    db.sweep();
    this.pruneAt = Math.max(ReplayStateManager.pruneMinimum, 2 * db.nodes);
  }

  /** After the load: every trie node leaves the database (the code stays); states are read by history. */
  dropTrieNodes(): void {
    this.database().dropNodes();
    this.tries.forget();
    this.version = undefined;
  }

  /**
   * The state at `root` read by trie, on a database of its own filled from the history (code read
   * from this one's): for proofs and ranges in hash order. Costs a write of the whole state.
   */
  materialized(root: Uint8Array): ReplayStateManager {
    const version = this.versionFor(root);
    if (version === undefined) return this.messageState(root);
    const sm = new ReplayStateManager({ common: this.common, caches: replayCaches() }, this.hash);
    sm.useDatabase(new NodeStore(this.database()));
    sm._trie.root(this.history!.materialize(version, sm.tries));
    return sm;
  }

  /**
   * Runs `fn` on this state with every node and code it writes taken out of the database again when
   * it ends: eth_simulateV1 hashes its simulated blocks' states (their roots are in the answer), and
   * those nodes must not stay in the chain's database. The caller has the state to itself meanwhile
   * (RecordingStore.exclusive); no state of the chain refers to a node added here.
   */
  async scratch<T>(fn: () => Promise<T>): Promise<T> {
    this.added = new Set();
    try {
      return await fn();
    } finally {
      const db = this.database();
      for (const key of this.added) db.delete(key);
      this.added = undefined;
    }
  }

  /**
   * Makes `nodes` the database in place of the one written so far: a snapshot's, which holds the
   * code its replay wrote, or a NodeStore. A Map is read through, not copied: it is the base of a
   * new NodeStore (a snapshot's map is decoded when first used: cache/snapshot.ts FilledOnUse).
   */
  useDatabase(nodes: Map<string, string | Uint8Array>): void {
    (this._trie.database() as unknown as CheckpointLayers).db._database = nodes instanceof NodeStore ? nodes : new NodeStore(nodes);
  }

  /** The database: the nodes of the state (by trie) and the code; the code is the snapshot's content. */
  database(): NodeStore {
    return (this._trie.database() as unknown as CheckpointLayers).db._database;
  }

  /**
   * The state at `root` for one message (eth_call, eth_estimateGas, eth_createAccessList, a state
   * read): on the same database, reading through this state's batched trie and its decoded nodes,
   * with caches of its own that it never flushes, so nothing the message writes reaches the shared
   * database (ethereumjs's shallowCopy would write the message's nodes into it at its last commit).
   */
  messageState(root: Uint8Array): ReplayStateManager {
    const trie = this._trie.shallowCopy(false);
    trie.root(root);
    return new MessageState({ common: this.common, caches: replayCaches(), trie }, this.hash, { tries: this.tries, history: this.history, version: this.versionFor(root) });
  }

  /**
   * A state manager of its own caches and Common on the same database, history and tries, reading
   * the state as this one does (ethereumjs's VM.shallowCopy asks for one): ethereumjs's own copy is a
   * plain MerkleStateManager, which finds no root in a database that holds no trie node (every
   * block's state once the load is done is read by history).
   */
  override shallowCopy(_downlevelCaches?: boolean): ReplayStateManager {
    const common = this.common.copy();
    common.setHardfork(this.common.hardfork());
    const trie = this._trie.shallowCopy(false);
    return new ReplayStateManager({ common, caches: replayCaches(), trie }, this.hash, { tries: this.tries, history: this.history, version: this.version });
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const cached = this._caches?.account?.get(address);
    if (cached !== undefined) return cached.accountRLP !== undefined ? accountFromRLP(cached.accountRLP) : undefined;
    const key = bytesToUnprefixedHex(this.hash(address.bytes));
    const rlp = this.version === undefined ? this.tries.get(this._trie.root(), key) : this.history!.account(key, this.version);
    // the cache keeps the account's RLP: the trie's own bytes, not the account encoded again
    this._caches?.account?.put(address, rlp === undefined ? undefined : ({ serialize: () => rlp } as Account));
    return rlp === undefined ? undefined : accountFromRLP(rlp);
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    const cached = this._caches?.storage?.get(address, key);
    if (cached !== undefined) return RLP.decode(cached) as Uint8Array;
    const account = await this.getAccount(address);
    if (account === undefined) return new Uint8Array();
    const slot = bytesToUnprefixedHex(this.hash(key));
    // by history, an emptied storage (cleared in this run, its root not computed) reads as empty
    const value =
      this.version === undefined ? this.tries.get(account.storageRoot, slot)
      : equalsBytes(account.storageRoot, this.tries.emptyRoot) ? undefined
      : this.history!.slot(bytesToUnprefixedHex(this.hash(address.bytes)), slot, this.version);
    this._caches?.storage?.put(address, key, value ?? Uint8Array.of(0x80));
    return value === undefined ? new Uint8Array() : (RLP.decode(value) as Uint8Array);
  }

  /**
   * Into the storage cache only, as the cache is meant to work: ethereumjs's putStorage writes the
   * slot through to the storage trie as well (`cache.put(…) ?? write(…)`, and put returns nothing),
   * a trie update per SSTORE that the next flush would make anyway.
   */
  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const cache = this._caches?.storage;
    if (cache === undefined) return super.putStorage(address, key, value);
    if (key.length !== 32) throw new Error('Storage key must be 32 bytes long');
    if (value.length > 32) throw new Error('Storage value cannot be longer than 32 bytes');
    if ((await this.getAccount(address)) === undefined) throw new Error('putStorage() called on non-existing account');
    cache.put(address, key, RLP.encode(unpadBytes(value)));
  }

  /**
   * Writes every cached change to the tries: code, then each account's slots as one batch, then the
   * accounts as one, recorded in the history while the load records it. Read by history, the
   * changes stay in the caches.
   */
  override async flush(): Promise<void> {
    if (this.version !== undefined) return;
    const history = this.history?.recording === true ? this.history : undefined;
    history?.beginFlush();
    for (const [addressHex, element] of this._caches?.code?.flush() ?? []) {
      if (element.code === undefined) continue;
      const address = createAddressFromString(`0x${addressHex}`);
      const codeHash = this.hash(element.code);
      const key = this._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash;
      if (this.added !== undefined && !this.database().has(bytesToUnprefixedHex(key))) this.added.add(bytesToUnprefixedHex(key));
      await this._trie.database().put(key, element.code);
      if ((await this.getAccount(address)) === undefined) await this.putAccount(address, new Account());
      await this.modifyAccountFields(address, { codeHash });
    }
    const slots = new Map<string, TrieWrite[]>();
    for (const [addressHex, keyHex, value] of this._caches?.storage?.flush() ?? []) {
      const decoded = RLP.decode(value ?? new Uint8Array()) as Uint8Array;
      const write: TrieWrite = [bytesToUnprefixedHex(this.hash(unprefixedHexToBytes(keyHex))), decoded.length > 0 ? RLP.encode(decoded) : undefined];
      const writes = slots.get(addressHex);
      if (writes === undefined) slots.set(addressHex, [write]);
      else writes.push(write);
    }
    for (const [addressHex, writes] of slots) {
      const address = createAddressFromString(`0x${addressHex}`);
      const account = await this.getAccount(address);
      if (account === undefined) continue;
      const hashed = bytesToUnprefixedHex(this.hash(address.bytes));
      history?.storageWrites(hashed, account.storageRoot, writes);
      account.storageRoot = this.tries.apply(account.storageRoot, writes);
      delete this._storageTries[hashed];
      await this.putAccount(address, account);
    }
    const accounts: TrieWrite[] = [];
    for (const [addressHex, element] of this._caches?.account?.flush() ?? []) {
      const hashed = bytesToUnprefixedHex(this.hash(unprefixedHexToBytes(addressHex)));
      history?.putAccount(hashed, element.accountRLP);
      accounts.push([hashed, element.accountRLP]);
    }
    if (accounts.length > 0) this._trie.root(this.tries.apply(this._trie.root(), accounts));
  }
}

/** A state whose writes stay in its caches (ReplayStateManager.messageState). */
class MessageState extends ReplayStateManager {
  override async flush(): Promise<void> {}
  override async getStateRoot(): Promise<Uint8Array> {
    throw new Error('a message state has no state root of its own');
  }
}
