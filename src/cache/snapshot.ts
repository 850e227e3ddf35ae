// The replay snapshot cache: what a load's replay produced (every trie node and code of the state
// database, each block's post-state root and receipts), in one file per fixture content and
// blocktrace version, so a second start reads it instead of replaying. One format of our own:
//
//   "BTSNAP01"  u32 header length  header (JSON)  entries  sha-256 of everything before it (32 bytes)
//   entry: u8 kind (0 string, 1 bytes)  u32 key length  key (UTF-8)  u32 value length  value
//
// A file whose checksum, magic or key does not match is ignored with one warning line, never
// trusted. Writes go to a temporary file renamed into place, so a reader sees a whole file or none
// and two processes writing the same snapshot cannot interleave. node:fs and node:crypto only: Bun,
// Deno and Node read and write it alike.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ReceiptInfo } from '../replay/chainView.ts';

const MAGIC = 'BTSNAP01';

export interface Snapshot {
  /** Post-state root of every block, genesis first. */
  readonly roots: readonly Uint8Array[];
  /** Receipts of every block after the genesis, in order. */
  readonly receipts: readonly (readonly ReceiptInfo[])[];
  /** The state database: trie nodes and code, as the replay left them. */
  readonly nodes: ReadonlyMap<string, string | Uint8Array>;
}

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

/** The snapshot's name: the fixture's bytes, the test picked in it, and the blocktrace version. */
export function snapshotKey(content: Uint8Array | string, selector: string, version: string): string {
  return createHash('sha256').update(content).update('\0').update(selector).update('\0').update(version).digest('hex');
}

export function snapshotPath(dir: string, key: string): string {
  return join(dir, `${key}.snap`);
}

// ---- receipts as JSON: bigints and bytes tagged -----------------------------------------------

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $b: value.toString(16) };
  if (value instanceof Uint8Array) return { $u: Buffer.from(value).toString('hex') };
  return value;
}

function reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o['$b'] === 'string' && Object.keys(o).length === 1) return BigInt(`0x${o['$b']}`);
    if (typeof o['$u'] === 'string' && Object.keys(o).length === 1) return Uint8Array.from(Buffer.from(o['$u'], 'hex'));
  }
  return value;
}

// ---- the file ----------------------------------------------------------------------------------

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

export function encodeSnapshot(key: string, snapshot: Snapshot): Buffer {
  const header = Buffer.from(JSON.stringify({ key, roots: snapshot.roots, receipts: snapshot.receipts, entries: snapshot.nodes.size }, replacer));
  const parts: Buffer[] = [Buffer.from(MAGIC), u32(header.length), header];
  for (const [k, v] of snapshot.nodes) {
    const keyBytes = Buffer.from(k, 'utf8');
    const valueBytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
    parts.push(Buffer.of(typeof v === 'string' ? 0 : 1), u32(keyBytes.length), keyBytes, u32(valueBytes.length), valueBytes);
  }
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash('sha256').update(body).digest()]);
}

/** The snapshot in `bytes`, or why it cannot be trusted. */
export function decodeSnapshot(bytes: Uint8Array, key: string): Snapshot | string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 4 + 32 || buf.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) return 'not a blocktrace snapshot';
  const body = buf.subarray(0, buf.length - 32);
  if (!createHash('sha256').update(body).digest().equals(buf.subarray(buf.length - 32))) return 'checksum mismatch';
  let at = MAGIC.length;
  const headerLength = body.readUInt32LE(at);
  at += 4;
  let header: { key: string; roots: Uint8Array[]; receipts: ReceiptInfo[][]; entries: number };
  try {
    header = JSON.parse(body.subarray(at, at + headerLength).toString('utf8'), reviver) as typeof header;
  } catch {
    return 'unreadable header';
  }
  at += headerLength;
  if (header.key !== key) return 'made for another fixture or version';
  const nodes = new Map<string, string | Uint8Array>();
  for (let i = 0; i < header.entries; i++) {
    if (at + 9 > body.length) return 'truncated';
    const kind = body[at]!;
    const keyLength = body.readUInt32LE(at + 1);
    const k = body.subarray(at + 5, at + 5 + keyLength).toString('utf8');
    at += 5 + keyLength;
    const valueLength = body.readUInt32LE(at);
    const v = body.subarray(at + 4, at + 4 + valueLength);
    at += 4 + valueLength;
    if (at > body.length) return 'truncated';
    nodes.set(k, kind === 0 ? v.toString('utf8') : Uint8Array.from(v));
  }
  if (at !== body.length) return 'trailing bytes';
  return { roots: header.roots, receipts: header.receipts, nodes };
}

/** The snapshot for `key` in `dir`; undefined when there is none, or (after one warning) a bad one. */
export function readSnapshot(dir: string, key: string, warn: (line: string) => void): Snapshot | undefined {
  const path = snapshotPath(dir, key);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
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

/** Writes the snapshot atomically (temporary file, then rename); a failure is one warning, not an error. */
export function writeSnapshot(dir: string, key: string, snapshot: Snapshot, warn: (line: string) => void): void {
  const path = snapshotPath(dir, key);
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(tmp, encodeSnapshot(key, snapshot));
    renameSync(tmp, path);
  } catch (err) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // no right to write there at all (Deno without --allow-write): nothing was written either
    }
    warn(`blocktrace: cannot write the replay cache ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
}
