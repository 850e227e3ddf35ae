// The state database as ethereumjs's MapDB holds it (a Map of unprefixed-hex keys), with the trie
// nodes kept out of the JavaScript heap: a node (a 64-hex-digit key, its hash) is its RLP in an arena
// of 1 MiB chunks, found through an open-addressing table of typed arrays keyed by the hash's first
// four bytes. Every other key (code) is an ordinary Map entry, and a key this store does not hold is
// read from `base` when there is one (a state written out beside the chain's: its code).
//
// A Map of millions of small byte arrays is millions of objects, each marked by every collection:
// at a million accounts the load's collections grew with the live state until it slowed to a crawl,
// and each entry cost some 200 bytes beyond its RLP; here a node costs its RLP and about 50 bytes.
//
// A read returns a copy (a view would keep its whole chunk alive past a compaction). A deleted node
// leaves its bytes until the store is compacted, which happens when the dead outweigh the live, and
// at the end of a pruning (mark…, sweep), which keeps only the nodes marked.
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import type { NodeSpan } from './stateTrie.ts';

const CHUNK_BITS = 20;
const CHUNK = 1 << CHUNK_BITS;
/** Hex digits of a node's key (a code's key has a prefix byte more). */
const NODE_KEY = 64;
const DEAD = -1;

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[97 + i] = 10 + i;
  HEX_VALUE[65 + i] = 10 + i;
}

/** `key` as 32 bytes into `out`; false when it is not 64 hex digits (then not a node's key). */
function parseKey(key: string, out: Uint8Array): boolean {
  if (key.length !== NODE_KEY) return false;
  for (let i = 0; i < 32; i++) {
    const hi = HEX_VALUE[key.charCodeAt(2 * i) & 127]!;
    const lo = HEX_VALUE[key.charCodeAt(2 * i + 1) & 127]!;
    if (hi < 0 || lo < 0 || key.charCodeAt(2 * i) > 127 || key.charCodeAt(2 * i + 1) > 127) return false;
    out[i] = (hi << 4) | lo;
  }
  return true;
}

/** The open-addressing table's size for `entries`: a power of two, at least twice as many slots, 4,096 at least. */
function tableSize(entries: number): number {
  let size = 4096;
  while (size < 2 * entries) size *= 2;
  return size;
}

/** The key of the hash at `bytes[at…at+32]`. */
function keyHex(bytes: Uint8Array, at: number): string {
  return bytesToUnprefixedHex(bytes.subarray(at, at + 32));
}

type Value = string | Uint8Array;

export class NodeStore extends Map<string, Value> {
  /** Entries (dead ones included) above which a delete compacts the store once the dead outnumber the live (tests set it lower). */
  static compactAbove = 65_536;
  private chunks: Uint8Array[] = [];
  private used = CHUNK;
  /** Per entry: its hash (32 bytes each), where its RLP is (chunk · CHUNK + offset), its length (DEAD: deleted). */
  private hashes = new Uint8Array(32 * 1024);
  private places = new Float64Array(1024);
  private lengths = new Int32Array(1024);
  private entries_ = 0;
  private liveNodes = 0;
  /** Slots: an entry's index + 1, 0 for none; twice the entries at least. */
  private table = new Int32Array(tableSize(0));
  /** While a pruning marks (mark, sweep): 1 for each entry marked. */
  private marks: Uint8Array | undefined;
  private readonly scratch = new Uint8Array(32);

  constructor(private readonly base?: Map<string, Value>) {
    super();
  }

  /** The trie nodes held. */
  get nodes(): number {
    return this.liveNodes;
  }

  override get size(): number {
    return super.size + this.liveNodes;
  }

  override get(key: string): Value | undefined {
    if (parseKey(key, this.scratch)) {
      const at = this.find(this.scratch, 0);
      if (at >= 0 && this.lengths[at]! !== DEAD) return this.bytes(at).slice();
    } else {
      const own = super.get(key);
      if (own !== undefined) return own;
    }
    return this.base?.get(key);
  }

  override has(key: string): boolean {
    if (parseKey(key, this.scratch)) {
      const at = this.find(this.scratch, 0);
      if (at >= 0 && this.lengths[at]! !== DEAD) return true;
    } else if (super.has(key)) return true;
    return this.base?.has(key) ?? false;
  }

  override set(key: string, value: Value): this {
    if (!parseKey(key, this.scratch)) return super.set(key, value);
    this.put(this.scratch, typeof value === 'string' ? Buffer.from(value, 'hex') : value);
    return this;
  }

  override delete(key: string): boolean {
    if (!parseKey(key, this.scratch)) return super.delete(key);
    const at = this.find(this.scratch, 0);
    if (at < 0 || this.lengths[at]! === DEAD) return false;
    this.lengths[at] = DEAD;
    this.liveNodes--;
    if (this.entries_ > NodeStore.compactAbove && this.entries_ > 2 * this.liveNodes) this.rebuild(() => true);
    return true;
  }

  override clear(): void {
    super.clear();
    this.dropNodes();
  }

  /** Every trie node leaves (the other keys stay). */
  dropNodes(): void {
    this.chunks = [];
    this.used = CHUNK;
    this.hashes = new Uint8Array(32 * 1024);
    this.places = new Float64Array(1024);
    this.lengths = new Int32Array(1024);
    this.entries_ = 0;
    this.liveNodes = 0;
    this.table = new Int32Array(tableSize(0));
    this.marks = undefined;
  }

  override *entries(): MapIterator<[string, Value]> {
    yield* super.entries();
    for (let i = 0; i < this.entries_; i++) if (this.lengths[i]! !== DEAD) yield [keyHex(this.hashes, 32 * i), this.bytes(i).slice()];
  }

  override *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  override *values(): MapIterator<Value> {
    for (const [, value] of this.entries()) yield value;
  }

  override [Symbol.iterator](): MapIterator<[string, Value]> {
    return this.entries();
  }

  override forEach(fn: (value: Value, key: string, map: Map<string, Value>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
  }

  // ---- pruning --------------------------------------------------------------------------------

  /** Starts a pruning: no node is marked. */
  startMarking(): void {
    this.marks = new Uint8Array(this.entries_);
  }

  /**
   * Marks the node of `hash` (32 bytes at `at`) to be kept: when it was not marked yet, puts where
   * its RLP lies in `span` (its chunk and range, to be read before the store changes) and answers
   * true; false when it was; throws when the store does not hold it (StateTrie's NodeMarker).
   */
  mark(hash: Uint8Array, at: number, span: NodeSpan): boolean {
    const i = this.find(hash, at);
    if (i < 0 || this.lengths[i]! === DEAD) throw new Error(`missing trie node ${keyHex(hash, at)}`);
    if (this.marks![i] === 1) return false;
    this.marks![i] = 1;
    const place = this.places[i]!;
    span.buf = this.chunks[Math.floor(place / CHUNK)]!;
    span.start = place % CHUNK;
    span.end = span.start + this.lengths[i]!;
    return true;
  }

  /** Ends a pruning: the nodes not marked go, and the arena is written anew with those kept. */
  sweep(): void {
    const marks = this.marks!;
    this.marks = undefined;
    this.rebuild((i) => marks[i] === 1);
  }

  // ---- the arena and the table ----------------------------------------------------------------

  private bytes(i: number): Uint8Array {
    const place = this.places[i]!;
    const chunk = this.chunks[Math.floor(place / CHUNK)]!;
    const from = place % CHUNK;
    return chunk.subarray(from, from + this.lengths[i]!);
  }

  /** The entry of the hash at `hash[at…at+32]`, or −1. */
  private find(hash: Uint8Array, at: number): number {
    const table = this.table;
    const mask = table.length - 1;
    let slot = (hash[at]! | (hash[at + 1]! << 8) | (hash[at + 2]! << 16) | (hash[at + 3]! << 24)) & mask;
    const hashes = this.hashes;
    for (;;) {
      const entry = table[slot]!;
      if (entry === 0) return -1;
      const i = entry - 1;
      let same = true;
      for (let b = 0, o = 32 * i; b < 32; b++) {
        if (hashes[o + b] !== hash[at + b]) {
          same = false;
          break;
        }
      }
      if (same) return i;
      slot = (slot + 1) & mask;
    }
  }

  private put(hash: Uint8Array, value: Uint8Array): void {
    const found = this.find(hash, 0);
    if (found >= 0) {
      // a node's key is its hash: the bytes held are these (unless it was deleted)
      if (this.lengths[found]! === DEAD) {
        this.places[found] = this.append(value);
        this.lengths[found] = value.length;
        this.liveNodes++;
      }
      return;
    }
    this.add(hash, 0, value);
  }

  /** A new entry (the hash not held). */
  private add(hash: Uint8Array, at: number, value: Uint8Array): void {
    const i = this.entries_;
    if (i === this.lengths.length) this.growEntries();
    this.hashes.set(hash.subarray(at, at + 32), 32 * i);
    this.places[i] = this.append(value);
    this.lengths[i] = value.length;
    this.entries_++;
    this.liveNodes++;
    if (2 * this.entries_ > this.table.length) this.rehash(2 * this.table.length);
    else this.slot(i);
  }

  private slot(i: number): void {
    const table = this.table;
    const mask = table.length - 1;
    const o = 32 * i;
    const h = this.hashes;
    let slot = (h[o]! | (h[o + 1]! << 8) | (h[o + 2]! << 16) | (h[o + 3]! << 24)) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = i + 1;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    for (let i = 0; i < this.entries_; i++) this.slot(i);
  }

  private growEntries(): void {
    const n = 2 * this.lengths.length;
    const hashes = new Uint8Array(32 * n);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const places = new Float64Array(n);
    places.set(this.places);
    this.places = places;
    const lengths = new Int32Array(n);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  /** Copies `value` into the arena; where it is. */
  private append(value: Uint8Array): number {
    if (value.length > CHUNK) {
      // a node larger than a chunk (none in a state trie) gets one of its own
      this.chunks.push(value.slice());
      this.used = CHUNK;
      return (this.chunks.length - 1) * CHUNK;
    }
    if (this.used + value.length > CHUNK) {
      this.chunks.push(new Uint8Array(CHUNK));
      this.used = 0;
    }
    const place = (this.chunks.length - 1) * CHUNK + this.used;
    this.chunks[this.chunks.length - 1]!.set(value, this.used);
    this.used += value.length;
    return place;
  }

  /**
   * Keeps only the live entries `keep` accepts. In place, moving each kept node's bytes forward in
   * the arena and its entry forward in the arrays (no second arena at the moment of a pruning, when
   * the store is largest); by a copy when the arena does not hold the entries in their order (a
   * deleted node put again is appended) or holds a node of a chunk of its own.
   */
  private rebuild(keep: (i: number) => boolean): void {
    if (this.inOrder(keep)) this.compact(keep);
    else this.rebuildCopying(keep);
  }

  private inOrder(keep: (i: number) => boolean): boolean {
    let last = -1;
    for (let i = 0; i < this.entries_; i++) {
      const length = this.lengths[i]!;
      if (length === DEAD || !keep(i)) continue;
      if (length > CHUNK || this.places[i]! < last) return false;
      last = this.places[i]!;
    }
    return true;
  }

  /**
   * Packs the kept entries from the start, in order: each goes where the arena's packing rule (a
   * node never spans two chunks) puts it after the ones kept before it, which is never past where
   * it was, so a copy never overwrites a node still to be moved.
   */
  private compact(keep: (i: number) => boolean): void {
    const { chunks, hashes, places, lengths } = this;
    let kept = 0;
    let chunk = -1;
    let used = CHUNK;
    for (let i = 0; i < this.entries_; i++) {
      const length = lengths[i]!;
      if (length === DEAD || !keep(i)) continue;
      const place = places[i]!;
      const from = place % CHUNK;
      const source = Math.floor(place / CHUNK);
      if (used + length > CHUNK) {
        chunk++;
        used = 0;
      }
      const to = chunk * CHUNK + used;
      if (to !== place) {
        if (chunk === source) chunks[chunk]!.copyWithin(used, from, from + length);
        else chunks[chunk]!.set(chunks[source]!.subarray(from, from + length), used);
      }
      used += length;
      if (kept !== i) hashes.copyWithin(32 * kept, 32 * i, 32 * i + 32);
      places[kept] = to;
      lengths[kept] = length;
      kept++;
    }
    chunks.length = chunk + 1;
    this.used = chunk < 0 ? CHUNK : used;
    this.entries_ = kept;
    this.liveNodes = kept;
    this.rehash(tableSize(kept));
  }

  /** Writes the store anew with the live entries `keep` accepts, in their order. */
  private rebuildCopying(keep: (i: number) => boolean): void {
    const old = { chunks: this.chunks, hashes: this.hashes, places: this.places, lengths: this.lengths, entries: this.entries_ };
    let kept = 0;
    for (let i = 0; i < old.entries; i++) if (old.lengths[i]! !== DEAD && keep(i)) kept++;
    let capacity = 1024;
    while (capacity < kept) capacity *= 2;
    this.chunks = [];
    this.used = CHUNK;
    this.hashes = new Uint8Array(32 * capacity);
    this.places = new Float64Array(capacity);
    this.lengths = new Int32Array(capacity);
    this.entries_ = 0;
    this.liveNodes = 0;
    this.table = new Int32Array(tableSize(capacity));
    for (let i = 0; i < old.entries; i++) {
      const length = old.lengths[i]!;
      if (length === DEAD || !keep(i)) continue;
      const place = old.places[i]!;
      const from = place % CHUNK;
      this.add(old.hashes, 32 * i, old.chunks[Math.floor(place / CHUNK)]!.subarray(from, from + length));
    }
  }
}
