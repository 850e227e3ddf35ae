// The replay snapshot cache: what a load's replay produced (every block's state changes and the
// code, each block's post-state root, receipts and frames-only recording), in one file per
// fixture content and blocktrace version, so a second start reads it instead of replaying. One
// format of our own:
//
//   "BTSNAP12"  u32 header length  header (JSON)  blocks  receipts  index  logs  recordings  history  entries  u32 CRC-32 of everything before it
//   header:   {"key", "fixture" (the path it was made from, for `cache ls`), "blocks" (their number), "entries"}
//   blocks:   u32 length  every root (genesis first, 32 bytes each), then per block its hash (32),
//             logs bloom (256), gas used (u64), number of transactions (u32), then every
//             transaction hash (32 each), all kept as views of the file
//   receipts: per block, u32 length  its receipts (JSON, without their logs blooms:
//             replay/snapshotData.ts encodeReceipts), parsed when asked for
//   index:    u32 length  the chain index (chainIndex/encode.ts), decoded when first asked for
//   logs:     u32 length  the log table (chainIndex/encodeLogTable.ts), decoded when first asked for
//   recordings: per block, u32 length  its recording (recordingCodec/encodeRecording.ts), decoded
//             when a request first needs it
//   history:  u32 length  every block's state changes (replay/stateHistory.ts encode), read when a
//             request first needs state
//   entries:  the state database as the load left it: the code (no trie node)
//   entry: u8 kind (bit 0: the value is bytes, not UTF-8 text; bit 1: the key is hex text, kept as
//          the bytes it spells)  u32 key length  key  u32 value length  value
//
// The blocks section holds each block's hash (as the replay computed it: a restore hashes no
// header), root, its transaction hashes and what its receipts add up to (logs bloom, gas used),
// which a restore checks against the block's header without reading the receipts or decoding the
// block. It is binary and read as views of the file, so a start parses no JSON and copies no hash
// for them. A receipt's bloom is not kept: it is the bloom of its logs, made again when the
// receipts are read (replay/receipts.ts withBlooms), and would be a large share of the file.
// A file whose checksum, magic or key does not match is ignored with one warning line, never
// trusted. Writes go to a temporary file renamed into place, so a reader sees a whole file or none
// and two processes writing the same snapshot cannot interleave. The checksum is a CRC-32
// (crc32.ts): it finds a damaged or truncated file, and runs over the whole file at every start,
// so it must be cheap. node:fs, node:crypto and node:zlib only: Bun, Deno and Node read and write
// it alike; Bun maps the file instead of reading it (mapFile.ts). The figures behind these choices:
// docs/performance.md, "Figures behind the code".
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { decodeChainIndex, encodeChainIndex } from '../chainIndex/encode.ts';
import { decodeLogTable, encodeLogTable } from '../chainIndex/encodeLogTable.ts';
import type { Snapshot, SnapshotBlock } from '../replay/snapshotData.ts';
import { crc32 } from './crc32.ts';
import { mapFile } from './mapFile.ts';

export type { Snapshot, SnapshotBlock, SnapshotReceipt } from '../replay/snapshotData.ts';

const MAGIC = 'BTSNAP12';
/** A block's fixed part in the blocks section: hash, logs bloom, gas used, number of transactions. */
const BLOCK_FIXED = 32 + 256 + 8 + 4;
/** The checksum's bytes at the end. */
const CHECKSUM = 4;
/** Entry kind bits. */
const VALUE_BYTES = 1;
const KEY_HEX = 2;
/** A key kept as the bytes it spells: lowercase hex of whole bytes (trie node hashes, code keys). */
const HEX = /^(?:[0-9a-f]{2})+$/;

/**
 * Where snapshots live: --cache DIR, else $XDG_CACHE_HOME/blocktrace, else ~/.cache/blocktrace;
 * undefined (no cache) where no home directory can be known (Deno without --allow-sys and no $HOME).
 */
export function defaultCacheDir(env: Record<string, string | undefined>): string | undefined {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && xdg !== '') return join(xdg, 'blocktrace');
  let home = env['HOME'];
  if (home === undefined || home === '') {
    try {
      home = homedir();
    } catch {
      return undefined;
    }
  }
  return join(home, '.cache', 'blocktrace');
}

export function snapshotPath(dir: string, key: string): string {
  return join(dir, `${key}.snap`);
}

// ---- the file ----------------------------------------------------------------------------------

/**
 * The snapshot's bytes in order, without its checksum, as pieces that are the snapshot's own
 * buffers where it has them (receipts, recordings, history): a writer takes them one at a time, so
 * no copy of the whole file is made (it grows with the chain). `fixture`: the
 * path of the fixture it was made from, for `cache ls` (read from the file's start, see store.ts).
 */
function* snapshotPieces(key: string, snapshot: Snapshot, fixture?: string): Generator<Uint8Array> {
  const header = Buffer.from(JSON.stringify({ key, ...(fixture === undefined ? {} : { fixture }), blocks: snapshot.blocks.length, entries: snapshot.nodes.size }));
  yield Buffer.from(MAGIC, 'latin1');
  yield u32(header.length);
  yield header;
  yield* blocksSection(snapshot);
  for (const b of snapshot.blocks) {
    yield u32(b.receipts.length);
    yield b.receipts;
  }
  const index = encodeChainIndex(snapshot.index);
  yield u32(index.length);
  yield index;
  const logs = encodeLogTable(snapshot.logs);
  yield u32(logs.length);
  yield logs;
  for (const b of snapshot.blocks) {
    yield u32(b.recording.length);
    yield b.recording;
  }
  const history = snapshot.history instanceof Uint8Array ? [snapshot.history] : snapshot.history;
  yield u32(history.reduce((n, piece) => n + piece.length, 0));
  yield* history;
  // the database's entries (the code) in one buffer of the exact size, written in place
  let size = 0;
  for (const [k, v] of snapshot.nodes) size += 9 + (HEX.test(k) ? k.length / 2 : Buffer.byteLength(k)) + (typeof v === 'string' ? Buffer.byteLength(v) : v.length);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const [k, v] of snapshot.nodes) {
    const hex = HEX.test(k);
    at = out.writeUInt8((typeof v === 'string' ? 0 : VALUE_BYTES) | (hex ? KEY_HEX : 0), at);
    const keyLength = hex ? k.length / 2 : Buffer.byteLength(k);
    at = out.writeUInt32LE(keyLength, at);
    at += out.write(k, at, keyLength, hex ? 'hex' : 'utf8');
    if (typeof v === 'string') {
      const valueLength = Buffer.byteLength(v);
      at = out.writeUInt32LE(valueLength, at);
      at += out.write(v, at, valueLength, 'utf8');
    } else {
      at = out.writeUInt32LE(v.length, at);
      out.set(v, at);
      at += v.length;
    }
  }
  yield out;
}

/** The blocks section (the layout above), length first. */
function* blocksSection(snapshot: Snapshot): Generator<Uint8Array> {
  const txs = snapshot.blocks.reduce((n, b) => n + b.txHashes.length, 0);
  const out = Buffer.allocUnsafe(32 * snapshot.roots.length + BLOCK_FIXED * snapshot.blocks.length + 32 * txs);
  let at = 0;
  const put = (bytes: Uint8Array, size: number): void => {
    if (bytes.length !== size) throw new Error(`snapshot: a ${size}-byte field of ${bytes.length} bytes`);
    out.set(bytes, at);
    at += size;
  };
  for (const root of snapshot.roots) put(root, 32);
  for (const b of snapshot.blocks) {
    put(b.hash, 32);
    put(b.logsBloom, 256);
    at = out.writeBigUInt64LE(b.gasUsed, at);
    at = out.writeUInt32LE(b.txHashes.length, at);
  }
  for (const b of snapshot.blocks) for (const hash of b.txHashes) put(hash, 32);
  yield u32(out.length);
  yield out;
}

/** The whole snapshot file in one buffer (tests, and what writeSnapshot writes piece by piece). */
export function encodeSnapshot(key: string, snapshot: Snapshot, fixture?: string): Buffer {
  const pieces = [...snapshotPieces(key, snapshot, fixture)];
  const body = Buffer.concat(pieces);
  return Buffer.concat([body, u32(crc32(body))]);
}

/**
 * The snapshot in `bytes`, or why it cannot be trusted. It is read in the order of the layout above;
 * values stay views of `bytes` (read once and kept), and each block's receipts are parsed when first
 * asked for.
 */
export function decodeSnapshot(bytes: Uint8Array, key: string): Snapshot | string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 4 + CHECKSUM || buf.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return 'not a blocktrace snapshot';
  const body = buf.subarray(0, buf.length - CHECKSUM);
  if (crc32(body) !== buf.readUInt32LE(buf.length - CHECKSUM)) return 'checksum mismatch';
  const headerEnd = MAGIC.length + 4 + body.readUInt32LE(MAGIC.length);
  type Header = { key: string; blocks: number; entries: number };
  let header: Header;
  try {
    header = JSON.parse(body.toString('utf8', MAGIC.length + 4, headerEnd)) as Header;
  } catch {
    return 'unreadable header';
  }
  if (header.key !== key) return 'made for another fixture or version';
  const count = header.blocks;
  if (!Number.isSafeInteger(count) || count < 0 || !Number.isSafeInteger(header.entries)) return 'unreadable header';
  // a header that runs past the end leaves no room for the sections: the first one says truncated
  const file = new Sections(body, headerEnd);
  const blocksSection = file.next();
  if (blocksSection === undefined) return 'truncated';
  const chain = decodeBlocks(blocksSection, count);
  if (typeof chain === 'string') return chain;
  // each block's receipts: a view of the file, parsed when they are asked for (replay/storedBlock.ts)
  const receipts = file.several(count);
  if (receipts === undefined) return 'truncated';
  const index = file.next();
  if (index === undefined) return 'truncated';
  const logs = file.next();
  if (logs === undefined) return 'truncated';
  const recordings = file.several(count);
  if (recordings === undefined) return 'truncated';
  const history = file.next();
  if (history === undefined) return 'truncated';
  // the entries are walked now (a damaged file is found before it is used) and decoded into the
  // state database when it is first used (FilledOnUse): a start that answers from blocks, receipts
  // and recordings alone never makes their keys
  const entriesAt = file.end;
  let at = entriesAt;
  for (let i = 0; i < header.entries; i++) {
    if (at + 9 > body.length) return 'truncated';
    const { end } = entryAt(body, at);
    if (end > body.length) return 'truncated';
    at = end;
  }
  if (at !== body.length) return 'trailing bytes';
  const nodes = new FilledOnUse<string, string | Uint8Array>((set) => {
    for (let i = 0, from = entriesAt; i < header.entries; i++) {
      const { keyEnd, end } = entryAt(body, from);
      const kind = body[from]!;
      const k = body.toString(kind & KEY_HEX ? 'hex' : 'utf8', from + 5, keyEnd);
      const start = keyEnd + 4;
      set(k, kind & VALUE_BYTES ? new Uint8Array(body.buffer, body.byteOffset + start, end - start) : body.toString('utf8', start, end));
      from = end;
    }
  });
  const blocks = chain.blocks.map((b, i) => ({ ...b, receipts: receipts[i]!, recording: recordings[i]! }));
  return { roots: chain.roots, blocks, nodes, history, index: decodeChainIndex(index), logs: decodeLogTable(logs) };
}

/** The file's length-prefixed sections in order, from `end`: each a u32 length, then that many bytes. */
class Sections {
  constructor(
    private readonly body: Buffer,
    /** Where the sections read so far end. */
    public end: number,
  ) {}

  /** The next section, a view of the file; undefined when the file ends before it does. */
  next(): Uint8Array | undefined {
    const start = this.end + 4;
    if (start > this.body.length) return undefined;
    const end = start + this.body.readUInt32LE(this.end);
    if (end > this.body.length) return undefined;
    this.end = end;
    return new Uint8Array(this.body.buffer, this.body.byteOffset + start, end - start);
  }

  /** The next `n` sections (one per block); undefined when the file ends before the last. */
  several(n: number): Uint8Array[] | undefined {
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++) {
      const section = this.next();
      if (section === undefined) return undefined;
      out.push(section);
    }
    return out;
  }
}

/** What the blocks section holds of a block: all but its receipts and recording. */
type BlockFacts = Omit<SnapshotBlock, 'receipts' | 'recording'>;

/** The blocks section (the layout above) of `count` blocks: the roots, then each block's fixed part, then every transaction hash. */
function decodeBlocks(section: Uint8Array, count: number): { roots: Uint8Array[]; blocks: BlockFacts[] } | string {
  const table = Buffer.from(section.buffer, section.byteOffset, section.byteLength);
  const view = (from: number, size: number): Uint8Array => new Uint8Array(table.buffer, table.byteOffset + from, size);
  const fixedAt = 32 * (count + 1);
  let hashAt = fixedAt + BLOCK_FIXED * count;
  if (hashAt > table.length) return 'truncated';
  const roots = Array.from({ length: count + 1 }, (_, i) => view(32 * i, 32));
  const blocks: BlockFacts[] = [];
  for (let i = 0, fixed = fixedAt; i < count; i++, fixed += BLOCK_FIXED) {
    const txCount = table.readUInt32LE(fixed + 296);
    if (hashAt + 32 * txCount > table.length) return 'truncated';
    const txHashes = new Array<Uint8Array>(txCount);
    for (let j = 0; j < txCount; j++, hashAt += 32) txHashes[j] = view(hashAt, 32);
    blocks.push({ hash: view(fixed, 32), logsBloom: view(fixed + 32, 256), gasUsed: table.readBigUInt64LE(fixed + 288), txHashes });
  }
  if (hashAt !== table.length) return 'unreadable blocks';
  return { roots, blocks };
}

/** Where the key of the database entry at `at` ends and where the entry ends (the file's layout above). */
function entryAt(body: Buffer, at: number): { keyEnd: number; end: number } {
  const keyEnd = at + 5 + body.readUInt32LE(at + 1);
  // a key that runs past the end leaves no room for the value's length: the caller says truncated
  return { keyEnd, end: keyEnd + 4 > body.length ? Number.POSITIVE_INFINITY : keyEnd + 4 + body.readUInt32LE(keyEnd) };
}

/**
 * A Map whose entries are put in by `fill` when it is first used in any way (read, written,
 * iterated, sized): a snapshot's state database, decoded when a request first needs state.
 */
export class FilledOnUse<K, V> extends Map<K, V> {
  private fill: ((set: (key: K, value: V) => void) => void) | undefined;

  constructor(fill: (set: (key: K, value: V) => void) => void) {
    super();
    this.fill = fill;
  }

  /** Puts the entries in, the first time only. */
  private filled(): void {
    const fill = this.fill;
    if (fill === undefined) return;
    this.fill = undefined;
    fill((key, value) => void super.set(key, value));
  }

  override get(key: K): V | undefined {
    this.filled();
    return super.get(key);
  }
  override has(key: K): boolean {
    this.filled();
    return super.has(key);
  }
  override set(key: K, value: V): this {
    this.filled();
    return super.set(key, value);
  }
  override delete(key: K): boolean {
    this.filled();
    return super.delete(key);
  }
  override clear(): void {
    this.fill = undefined;
    super.clear();
  }
  override get size(): number {
    this.filled();
    return super.size;
  }
  override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, self?: unknown): void {
    this.filled();
    super.forEach(fn, self);
  }
  override entries(): MapIterator<[K, V]> {
    this.filled();
    return super.entries();
  }
  override keys(): MapIterator<K> {
    this.filled();
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.filled();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/** The snapshot for `key` in `dir`; undefined when there is none, or (after one warning) a bad one. */
export function readSnapshot(dir: string, key: string, warn: (line: string) => void): Snapshot | undefined {
  const path = snapshotPath(dir, key);
  let bytes: Uint8Array;
  try {
    bytes = mapFile(path);
  } catch {
    return undefined;
  }
  const snapshot = decodeSnapshot(bytes, key);
  if (typeof snapshot === 'string') {
    warn(`blocktrace: ignoring the replay cache ${path} (${snapshot}); replaying the fixture`);
    return undefined;
  }
  return snapshot;
}

/** This machine's name as a temporary file's name holds it (letters, digits, `-` and `_`); `unknown` where it cannot be had. */
export function writerHost(): string {
  try {
    return hostname().replace(/[^A-Za-z0-9_-]/g, '_') || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * The temporary file a writer of `path` writes before its rename: `KEY.snap.HOST.PID.RANDOM.tmp`, so
 * that a later start can tell one whose writer was killed (store.ts sweepTemps) from one being written.
 */
export function tempPath(path: string): string {
  return `${path}.${writerHost()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Writes the snapshot atomically (temporary file, then rename), piece by piece with its checksum
 * made on the way; a failure is one warning, not an error.
 */
export function writeSnapshot(dir: string, key: string, snapshot: Snapshot, warn: (line: string) => void, fixture?: string): void {
  const path = snapshotPath(dir, key);
  const tmp = tempPath(path);
  let fd: number | undefined;
  try {
    mkdirSync(dir, { recursive: true });
    fd = openSync(tmp, 'w');
    let sum = 0;
    for (const piece of snapshotPieces(key, snapshot, fixture)) {
      sum = crc32(piece, sum);
      writeAll(fd, piece);
    }
    writeAll(fd, u32(sum));
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (err) {
    try {
      if (fd !== undefined) closeSync(fd);
      rmSync(tmp, { force: true });
    } catch {
      // no right to write there at all (Deno without --allow-write): nothing was written either
    }
    warn(`blocktrace: cannot write the replay cache ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** A length or the checksum as the file writes them: a u32, little-endian. */
function u32(n: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeUInt32LE(n, 0);
  return out;
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}
