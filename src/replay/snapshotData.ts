// What a replay snapshot holds (the replay's own products: roots, receipts, the blocks' recordings,
// the state database, the chain index and log table), in replay/ so that the chain can make and restore one; cache/snapshot.ts encodes it
// to a file.
import type { ChainIndex } from '../chainIndex/chainIndex.ts';
import type { LogTable } from '../chainIndex/logTable.ts';
import type { ReceiptInfo } from './chainView.ts';

/** A receipt as a snapshot keeps it: without its logs bloom. */
export type SnapshotReceipt = Omit<ReceiptInfo, 'logsBloom'>;

/**
 * One block of a snapshot: its transactions' hashes, its receipts (read on demand) and what they add
 * up to, and its frames-only recording (encoded: recordingCodec/).
 */
export interface SnapshotBlock {
  readonly txHashes: readonly Uint8Array[];
  readonly receipts: () => readonly SnapshotReceipt[];
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
  /** Every block's state changes (StateHistory.encode). */
  readonly history: Uint8Array;
  /** The transactions by address, creator and sender's nonce (chainIndex/), made by the replay. */
  readonly index: ChainIndex;
  /** Every log's address, topics and place (chainIndex/logTable.ts), made by the replay from its receipts. */
  readonly logs: LogTable;
}

/** The snapshot entry of a replayed block: its transactions' hashes, receipts and recording. */
export function snapshotBlock(txHashes: readonly Uint8Array[], receipts: readonly ReceiptInfo[], recording: Uint8Array): SnapshotBlock {
  const logsBloom = new Uint8Array(256);
  for (const r of receipts) for (let b = 0; b < 256; b++) logsBloom[b]! |= r.logsBloom[b]!;
  return { txHashes, receipts: () => receipts, recording, logsBloom, gasUsed: receipts.length === 0 ? 0n : receipts[receipts.length - 1]!.cumulativeGasUsed };
}
