// The chain's state as what each block changed: for every account (by hashed address) and every
// storage slot (by hashed address and hashed slot), the versions at which its trie value changed and
// the value from then on; version N is the state after block N (0: the genesis state). The state
// of any block is read by a binary search of the key's versions, so what is kept grows with what
// the blocks changed, not with the trie paths above each change (reth's and Erigon's history
// tables, go-ethereum's path-based archive keep it this way too).
//
// The load records each block's flushes into a pending version (begin, put…, commit); a storage
// wiped as a whole (an account deleted, or its storage cleared by a creation) is written as the
// deletion of every slot it held. Where a trie is needed (a root, a proof, a range in hash order)
// the whole state of a version is written into a StateTrie (materialize), its roots checked
// against the ones the load computed.
//
// Values are the trie's own bytes (account RLP; a slot's RLP string), kept once each in an arena of
// 1 MiB chunks as a length byte and the bytes; a key's history is a list of (version, place) pairs,
// place −1 for a deletion. encode() writes it all as one byte string for the replay snapshot.
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import type { StateTrie, TrieWrite } from './stateTrie.ts';

const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
const DELETED = -1;

/**
 * A key's history: version, place, version, place, … (versions ascending); a key of one pair (most
 * keys: an account or slot written once) as the number version · 2³² + place, which takes no object.
 */
type Pairs = number | number[] | Int32Array;

const ONE_PAIR = 2 ** 32;

/** The pairs of `pairs`. */
function pairCount(pairs: Pairs): number {
  return typeof pairs === 'number' ? 1 : pairs.length / 2;
}

function versionAt(pairs: Pairs, i: number): number {
  return typeof pairs === 'number' ? Math.floor(pairs / ONE_PAIR) : pairs[2 * i]!;
}

function placeAt(pairs: Pairs, i: number): number {
  return typeof pairs === 'number' ? pairs % ONE_PAIR : pairs[2 * i + 1]!;
}

/** The storage root of an account RLP ([nonce, balance, storageRoot, codeHash]). */
function storageRootOf(rlp: Uint8Array | undefined, empty: Uint8Array): Uint8Array {
  return rlp === undefined ? empty : ((RLP.decode(rlp) as Uint8Array[])[2]!);
}

export class StateHistory {
  private chunks: Uint8Array[] = [];
  private used = CHUNK;
  private readonly accounts = new Map<string, Pairs>();
  private readonly storage = new Map<string, Map<string, Pairs>>();
  /** Each version's root (hex) and the version of each root (the last of equal ones: same state). */
  private readonly rootOf: string[] = [];
  private readonly versionOfRoot = new Map<string, number>();
  /** The version being recorded, and its writes so far (undefined: a deletion). */
  private pending: number | undefined;
  private readonly pendingAccounts = new Map<string, Uint8Array | undefined>();
  private readonly pendingSlots = new Map<string, Map<string, Uint8Array | undefined>>();
  /** Accounts whose slots the current flush wrote (see storageWrites / putAccount). */
  private readonly flushed = new Set<string>();

  /** A snapshot's history not read yet (lazy): read when first used. */
  private unread: Uint8Array | undefined;

  constructor(private readonly emptyRoot: Uint8Array) {}

  /** The history `encode` wrote, read when first used (a start from a snapshot may never read state). */
  static lazy(bytes: Uint8Array, emptyRoot: Uint8Array): StateHistory {
    const history = new StateHistory(emptyRoot);
    history.unread = bytes;
    return history;
  }

  private read(): void {
    const bytes = this.unread;
    if (bytes === undefined) return;
    this.unread = undefined;
    this.decodeFrom(bytes);
  }

  /** The number of versions committed (the last is `versions − 1`). */
  get versions(): number {
    const bytes = this.unread;
    if (bytes !== undefined) return bytes.length < 4 ? 0 : new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
    return this.rootOf.length;
  }

  /** The version whose state has this root, if any. */
  versionOf(root: Uint8Array): number | undefined {
    this.read();
    return this.versionOfRoot.get(bytesToUnprefixedHex(root));
  }

  /** The account RLP at `hash` (unprefixed hex of the hashed address) in the state of `version`. */
  account(hash: string, version: number): Uint8Array | undefined {
    this.read();
    const pairs = this.accounts.get(hash);
    return pairs === undefined ? undefined : this.valueAt(pairs, version);
  }

  /** The slot's trie value (an RLP string) in the state of `version`. */
  slot(account: string, slot: string, version: number): Uint8Array | undefined {
    this.read();
    const pairs = this.storage.get(account)?.get(slot);
    return pairs === undefined ? undefined : this.valueAt(pairs, version);
  }

  // ---- recording ------------------------------------------------------------------------------

  /** Starts (or starts again: a run tried twice) the writes of `version`, the next one. */
  begin(version: number): void {
    this.read();
    if (version !== this.rootOf.length) throw new Error(`state history: version ${version} recorded after ${this.rootOf.length - 1}`);
    this.pending = version;
    this.pendingAccounts.clear();
    this.pendingSlots.clear();
  }

  get recording(): boolean {
    return this.pending !== undefined;
  }

  /** A flush starts: it writes slots first, then accounts. */
  beginFlush(): void {
    this.flushed.clear();
  }

  /**
   * An account's slots written by a flush onto the storage root `base`: a base other than the one
   * recorded last is an emptied storage (cleared by a creation), whose old slots are deleted first.
   */
  storageWrites(account: string, base: Uint8Array, writes: readonly TrieWrite[]): void {
    if (!equalsBytes(base, this.latestStorageRoot(account))) {
      if (!equalsBytes(base, this.emptyRoot)) throw new Error(`state history: storage of ${account} changed outside its slots`);
      this.wipe(account);
    }
    this.flushed.add(account);
    let slots = this.pendingSlots.get(account);
    if (slots === undefined) this.pendingSlots.set(account, (slots = new Map()));
    for (const [key, value] of writes) slots.set(key, value === undefined || value.length === 0 ? undefined : value);
  }

  /** An account written by a flush (undefined: deleted, with its storage). */
  putAccount(hash: string, rlp: Uint8Array | undefined): void {
    if (!this.flushed.has(hash)) {
      const root = storageRootOf(rlp, this.emptyRoot);
      if (!equalsBytes(root, this.latestStorageRoot(hash))) {
        if (!equalsBytes(root, this.emptyRoot)) throw new Error(`state history: storage root of ${hash} changed without a slot written`);
        this.wipe(hash);
      }
    }
    this.pendingAccounts.set(hash, rlp);
  }

  /** Ends `version` with the state root the trie gave it. */
  commit(root: Uint8Array): void {
    const version = this.pending;
    if (version === undefined) throw new Error('state history: commit without begin');
    for (const [hash, rlp] of this.pendingAccounts) this.append(this.accounts, hash, version, rlp);
    for (const [account, slots] of this.pendingSlots) {
      let map = this.storage.get(account);
      if (map === undefined) this.storage.set(account, (map = new Map()));
      for (const [slot, value] of slots) this.append(map, slot, version, value);
    }
    this.pendingAccounts.clear();
    this.pendingSlots.clear();
    this.pending = undefined;
    const hex = bytesToUnprefixedHex(root);
    this.rootOf.push(hex);
    this.versionOfRoot.set(hex, version);
  }

  /** Stops recording (a load that failed, or ended). */
  stop(): void {
    this.pending = undefined;
    this.pendingAccounts.clear();
    this.pendingSlots.clear();
  }

  private latestStorageRoot(hash: string): Uint8Array {
    if (this.pendingAccounts.has(hash)) return storageRootOf(this.pendingAccounts.get(hash), this.emptyRoot);
    const pairs = this.accounts.get(hash);
    return storageRootOf(pairs === undefined ? undefined : this.valueAt(pairs, Number.MAX_SAFE_INTEGER), this.emptyRoot);
  }

  /** Every slot the account holds now (recorded or pending) is deleted in the pending version. */
  private wipe(account: string): void {
    let slots = this.pendingSlots.get(account);
    if (slots === undefined) this.pendingSlots.set(account, (slots = new Map()));
    for (const key of slots.keys()) slots.set(key, undefined);
    for (const [key, pairs] of this.storage.get(account) ?? []) {
      if (placeAt(pairs, pairCount(pairs) - 1) !== DELETED) slots.set(key, undefined);
    }
  }

  private append(map: Map<string, Pairs>, key: string, version: number, value: Uint8Array | undefined): void {
    const pairs = map.get(key);
    if (pairs === undefined) {
      // a key's first pair is never a deletion: it is one pair, packed
      if (value !== undefined) map.set(key, version * ONE_PAIR + this.store(value));
      return;
    }
    const last = placeAt(pairs, pairCount(pairs) - 1);
    if (value === undefined ? last === DELETED : last !== DELETED && equalsBytes(this.bytesAt(last), value)) return;
    const place = value === undefined ? DELETED : this.store(value);
    if (Array.isArray(pairs)) pairs.push(version, place);
    else map.set(key, typeof pairs === 'number' ? [versionAt(pairs, 0), placeAt(pairs, 0), version, place] : [...pairs, version, place]);
  }

  private store(value: Uint8Array): number {
    if (value.length > 255) throw new Error(`state history: a value of ${value.length} bytes`);
    if (this.used + 1 + value.length > CHUNK) {
      this.chunks.push(new Uint8Array(CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    const place = ((this.chunks.length - 1) << CHUNK_BITS) + this.used;
    chunk[this.used] = value.length;
    chunk.set(value, this.used + 1);
    this.used += 1 + value.length;
    return place;
  }

  private bytesAt(place: number): Uint8Array {
    const chunk = this.chunks[place >>> CHUNK_BITS]!;
    const at = place & (CHUNK - 1);
    return chunk.subarray(at + 1, at + 1 + chunk[at]!);
  }

  /** The value of the last pair at or before `version`. */
  private valueAt(pairs: Pairs, version: number): Uint8Array | undefined {
    if (typeof pairs === 'number') return versionAt(pairs, 0) > version ? undefined : this.bytesAt(placeAt(pairs, 0));
    let lo = 0;
    let hi = pairs.length / 2 - 1;
    if (hi < 0 || pairs[0]! > version) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (pairs[2 * mid]! <= version) lo = mid;
      else hi = mid - 1;
    }
    const place = pairs[2 * lo + 1]!;
    return place === DELETED ? undefined : this.bytesAt(place);
  }

  // ---- tries ----------------------------------------------------------------------------------

  /**
   * Writes the whole state of `version` into `trie` (each storage trie, then the account trie) and
   * returns its root; an account whose storage gives another root than its own says the history is
   * wrong, and throws.
   */
  materialize(version: number, trie: StateTrie): Uint8Array {
    this.read();
    const accounts: TrieWrite[] = [];
    for (const [hash, pairs] of this.accounts) {
      const rlp = this.valueAt(pairs, version);
      if (rlp === undefined) continue;
      const expected = storageRootOf(rlp, this.emptyRoot);
      const slots: TrieWrite[] = [];
      for (const [key, slotPairs] of this.storage.get(hash) ?? []) {
        const value = this.valueAt(slotPairs, version);
        if (value !== undefined) slots.push([key, value]);
      }
      const root = slots.length === 0 ? this.emptyRoot : trie.apply(trie.emptyRoot, slots);
      if (!equalsBytes(root, expected)) throw new Error(`state history: the storage of ${hash} at version ${version} does not give its root`);
      accounts.push([hash, rlp]);
    }
    const root = trie.apply(trie.emptyRoot, accounts);
    const known = this.rootOf[version];
    if (known !== undefined && known !== bytesToUnprefixedHex(root)) throw new Error(`state history: version ${version} gives root ${bytesToUnprefixedHex(root)}, not ${known}`);
    return root;
  }

  // ---- encoding -------------------------------------------------------------------------------
  //
  //   u32 versions  versions × 32-byte root
  //   u32 arena length  arena (every chunk but the last whole, so places stay valid)
  //   u32 accounts  per account: 32-byte hash  u32 pairs  pairs × (i32 version, i32 place)
  //   u32 storages  per account: 32-byte hash  u32 slots  per slot: 32-byte hash  u32 pairs  pairs
  // little-endian throughout.

  encode(): Uint8Array {
    const pieces = this.encodePieces();
    return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  }

  /**
   * The bytes `encode` gives, as pieces: the arena's chunks are their own (views, not copied), so
   * a snapshot's writer takes the history without a second copy of its values (hundreds of MB on
   * a long chain).
   */
  encodePieces(): Uint8Array[] {
    if (this.unread !== undefined) return [this.unread];
    // a decoded history's last chunk is as long as it is (and `used` is CHUNK, so nothing is added to it)
    const lengths = this.chunks.map((chunk, i) => (i === this.chunks.length - 1 ? Math.min(this.used, chunk.length) : CHUNK));
    const arena = lengths.reduce((a, b) => a + b, 0);
    const head = Buffer.alloc(4 + 32 * this.rootOf.length + 4);
    let at = head.writeUInt32LE(this.rootOf.length, 0);
    for (const root of this.rootOf) at += head.write(root, at, 32, 'hex');
    head.writeUInt32LE(arena, at);
    let size = 4 + 4;
    for (const pairs of this.accounts.values()) size += 36 + 8 * pairCount(pairs);
    for (const slots of this.storage.values()) {
      size += 36;
      for (const pairs of slots.values()) size += 36 + 8 * pairCount(pairs);
    }
    const out = Buffer.alloc(size);
    at = 0;
    const writePairs = (key: string, pairs: Pairs): void => {
      at += out.write(key, at, 32, 'hex');
      const n = pairCount(pairs);
      at = out.writeUInt32LE(n, at);
      for (let i = 0; i < n; i++) {
        at = out.writeInt32LE(versionAt(pairs, i), at);
        at = out.writeInt32LE(placeAt(pairs, i), at);
      }
    };
    at = out.writeUInt32LE(this.accounts.size, at);
    for (const [hash, pairs] of this.accounts) writePairs(hash, pairs);
    at = out.writeUInt32LE(this.storage.size, at);
    for (const [hash, slots] of this.storage) {
      at += out.write(hash, at, 32, 'hex');
      at = out.writeUInt32LE(slots.size, at);
      for (const [slot, pairs] of slots) writePairs(slot, pairs);
    }
    if (at !== size) throw new Error(`state history: encoded ${at} bytes of ${size}`);
    return [head, ...this.chunks.map((chunk, i) => chunk.subarray(0, lengths[i])), out];
  }

  /** Reads the history `encode` wrote; its arena stays a view of `bytes`. Throws on a malformed one. */
  private decodeFrom(bytes: Uint8Array): void {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    const u32 = (): number => {
      if (at + 4 > buf.length) throw new Error('state history: truncated');
      const n = buf.readUInt32LE(at);
      at += 4;
      return n;
    };
    const hash = (): string => {
      if (at + 32 > buf.length) throw new Error('state history: truncated');
      at += 32;
      return buf.toString('hex', at - 32, at);
    };
    const versions = u32();
    for (let v = 0; v < versions; v++) {
      const root = hash();
      this.rootOf.push(root);
      this.versionOfRoot.set(root, v);
    }
    const arena = u32();
    if (at + arena > buf.length) throw new Error('state history: truncated');
    for (let from = 0; from < arena; from += CHUNK) this.chunks.push(bytes.subarray(at + from, at + Math.min(arena, from + CHUNK)));
    at += arena;
    // a key of one pair is packed; a longer list is copied into an array of its own, aligned
    const readPairs = (): Pairs => {
      const n = u32();
      if (at + 8 * n > buf.length) throw new Error('state history: truncated');
      if (n === 1) {
        const version = buf.readInt32LE(at);
        const place = buf.readInt32LE(at + 4);
        at += 8;
        if (version < 0 || place < 0) throw new Error('state history: a key whose first pair is a deletion');
        return version * ONE_PAIR + place;
      }
      const pairs = new Int32Array(2 * n);
      for (let i = 0; i < 2 * n; i++, at += 4) pairs[i] = buf.readInt32LE(at);
      return pairs;
    };
    for (let n = u32(); n > 0; n--) this.accounts.set(hash(), readPairs());
    for (let n = u32(); n > 0; n--) {
      const slots = new Map<string, Pairs>();
      this.storage.set(hash(), slots);
      for (let m = u32(); m > 0; m--) slots.set(hash(), readPairs());
    }
    if (at !== buf.length) throw new Error('state history: trailing bytes');
  }
}
