// A block of a loaded fixture chain: number, hash, post-state root, receipts, the decoded block, and
// the recording of its call frames the load made (encoded: recordingCodec/).
// A chain restored from a snapshot knows a block by its header (the first item of its RLP) and the
// transaction hashes the snapshot keeps, and decodes the block, and parses its receipts, only when
// something first asks for them: a start from a snapshot then decodes no transaction at all.
import { type Block, type BlockHeader, createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { ChainBlock, ReceiptInfo } from './chainView.ts';

export class StoredBlock implements ChainBlock {
  private decoded: Block | undefined;
  private receiptList: readonly ReceiptInfo[] | undefined;

  private constructor(
    readonly header: BlockHeader,
    readonly hash: Uint8Array,
    /** Hashes of its transactions, in order. */
    readonly txHashes: readonly Uint8Array[],
    /** Post-state root of this block. */
    readonly stateRoot: Uint8Array,
    private readonly decode: () => Block,
    private readonly readReceipts: () => readonly ReceiptInfo[],
    /** Its frames-only recording as the load made it, encoded (recordingCodec/encodeRecording.ts). */
    readonly recording: Uint8Array | undefined,
  ) {}

  /** A decoded block: run by the replay, or with its receipts from a snapshot. */
  static of(block: Block, stateRoot: Uint8Array, receipts: readonly ReceiptInfo[] | (() => readonly ReceiptInfo[]), recording?: Uint8Array): StoredBlock {
    const read = typeof receipts === 'function' ? receipts : () => receipts;
    const stored = new StoredBlock(block.header, block.hash(), block.transactions.map((tx) => tx.hash()), stateRoot, () => block, read, recording);
    stored.decoded = block;
    return stored;
  }

  /**
   * A block of `rlp` whose root, transaction hashes and receipts come from a snapshot: only its
   * header is decoded now; `decode` makes the Block when needed.
   */
  static restored(
    rlp: Uint8Array, common: Common, stateRoot: Uint8Array, txHashes: readonly Uint8Array[], decode: () => Block, receipts: () => readonly ReceiptInfo[], recording: Uint8Array,
  ): StoredBlock {
    // the block is the list [header, transactions, uncles, …]: past its length prefix, the header
    // is the first item, decoded alone (RLP's stream mode would copy all the rest of the block)
    const prefix = listPrefixLength(rlp, 0);
    const header = rlp.subarray(prefix, prefix + listPrefixLength(rlp, prefix) + listPayloadLength(rlp, prefix));
    const headerFields = RLP.decode(header) as Uint8Array[];
    const decoded = createBlockHeaderFromBytesArray(headerFields as never, { common, setHardfork: true, skipConsensusFormatValidation: true });
    return new StoredBlock(decoded, decoded.hash(), txHashes, stateRoot, decode, receipts, recording);
  }

  get number(): bigint {
    return this.header.number;
  }

  get block(): Block {
    return (this.decoded ??= this.decode());
  }

  get receipts(): readonly ReceiptInfo[] {
    return (this.receiptList ??= this.readReceipts());
  }
}

/** Bytes of the length prefix of the RLP list at `at` (one, or one plus the length's own bytes). */
function listPrefixLength(rlp: Uint8Array, at: number): number {
  const first = rlp[at]!;
  return first <= 0xf7 ? 1 : 1 + first - 0xf7;
}

/** Bytes of the payload of the RLP list at `at`, from its prefix. */
function listPayloadLength(rlp: Uint8Array, at: number): number {
  const first = rlp[at]!;
  if (first <= 0xf7) return first - 0xc0;
  let length = 0;
  for (let i = 1; i <= first - 0xf7; i++) length = length * 256 + rlp[at + i]!;
  return length;
}
