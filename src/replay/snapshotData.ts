// What a replay snapshot holds (the replay's own products: roots, receipts, the blocks' recordings,
// the state database, the chain index and log table), in replay/ so that the chain can make and restore one; cache/snapshot.ts encodes it
// to a file. A block's receipts are kept encoded here (JSON, bigints and bytes tagged, without the
// logs blooms): the snapshot writes and maps those bytes as they are, and a chain, replayed or
// restored, keeps them so and parses a block's when asked (storedBlock.ts).
import type { ChainIndex } from '../chainIndex/chainIndex.ts';
import type { LogTable } from '../chainIndex/logTable.ts';
import type { ReceiptInfo } from './chainView.ts';

/** A receipt as a snapshot keeps it: without its logs bloom. */
export type SnapshotReceipt = Omit<ReceiptInfo, 'logsBloom'>;

/**
 * One block of a snapshot: its transactions' hashes, its receipts (encoded: encodeReceipts) and what
 * they add up to, and its frames-only recording (encoded: recordingCodec/).
 */
export interface SnapshotBlock {
  /** The block's hash as the replay knew it (keccak of its canonical header): a restore hashes no header. */
  readonly hash: Uint8Array;
  readonly txHashes: readonly Uint8Array[];
  readonly receipts: Uint8Array;
  readonly recording: Uint8Array;
  /** The OR of its receipts' blooms. */
  readonly logsBloom: Uint8Array;
  /** Cumulative gas used after its last transaction (0 for none). */
  readonly gasUsed: bigint;
}

export interface Snapshot {
  /** Post-state root of every block, genesis first. */
  readonly roots: readonly Uint8Array[];
  /** Every block after the genesis, in order. */
  readonly blocks: readonly SnapshotBlock[];
  /** The state database as the replay left it: the code (the trie nodes are made from the history when needed). */
  readonly nodes: ReadonlyMap<string, string | Uint8Array>;
  /** Every block's state changes (StateHistory.encode; a replay's as its pieces, encodePieces). */
  readonly history: Uint8Array | readonly Uint8Array[];
  /** The transactions by address, creator and sender's nonce (chainIndex/), made by the replay. */
  readonly index: ChainIndex;
  /** Every log's address, topics and place (chainIndex/logTable.ts), made by the replay from its receipts. */
  readonly logs: LogTable;
}

/** The snapshot entry of a replayed block: its transactions' hashes, receipts (encoded now) and recording. */
export function snapshotBlock(hash: Uint8Array, txHashes: readonly Uint8Array[], receipts: readonly ReceiptInfo[], recording: Uint8Array): SnapshotBlock {
  const logsBloom = new Uint8Array(256);
  for (const r of receipts) for (let b = 0; b < 256; b++) logsBloom[b]! |= r.logsBloom[b]!;
  return { hash, txHashes, receipts: encodeReceipts(receipts), recording, logsBloom, gasUsed: receipts.length === 0 ? 0n : receipts[receipts.length - 1]!.cumulativeGasUsed };
}

// ---- JSON with bigints and bytes tagged (the receipts, and cache/snapshot.ts's header) ----------

export function taggedReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return { $b: value.toString(16) };
  if (value instanceof Uint8Array) return { $u: Buffer.from(value).toString('hex') };
  return value;
}

export function taggedReviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (typeof o['$b'] === 'string' && Object.keys(o).length === 1) return BigInt(`0x${o['$b']}`);
    if (typeof o['$u'] === 'string' && Object.keys(o).length === 1) return Uint8Array.from(Buffer.from(o['$u'], 'hex'));
  }
  return value;
}

/** As taggedReplacer, and a receipt's logs bloom left out. */
function receiptReplacer(key: string, value: unknown): unknown {
  return key === 'logsBloom' ? undefined : taggedReplacer(key, value);
}

/** A block's receipts as a snapshot keeps them: UTF-8 JSON, without their logs blooms. */
export function encodeReceipts(receipts: readonly ReceiptInfo[]): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(receipts, receiptReplacer));
}

/**
 * The receipts `encodeReceipts` wrote (their blooms are made again from their logs: receipts.ts
 * withBlooms). Parsed plain and then untagged, as taggedReviver would: a reviver makes the parse
 * many times slower, and a walk over a long chain parses every block's.
 */
export function decodeReceipts(bytes: Uint8Array): SnapshotReceipt[] {
  return untag(JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'))) as SnapshotReceipt[];
}

/** taggedReviver's value for `value` and all within it, the parsed objects and arrays changed in place. */
function untag(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = untag(value[i]);
    return value;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && typeof o['$b'] === 'string') return BigInt(`0x${o['$b']}`);
  if (keys.length === 1 && typeof o['$u'] === 'string') return hexBytes(o['$u']);
  for (const key of keys) o[key] = untag(o[key]);
  return o;
}

/** Bytes of lowercase hex text (Buffer.from(hex, 'hex') as its own Uint8Array, without the Buffer). */
function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

function nibble(c: number): number {
  return c <= 57 ? c - 48 : (c | 32) - 87;
}
