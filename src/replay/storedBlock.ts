// A block of a loaded fixture chain: number, hash, post-state root, receipts and the decoded block.
// A chain restored from a snapshot knows a block by its header and transaction hashes (read off its
// RLP) and decodes the block, and parses its receipts, only when something first asks for them: a
// start from a snapshot then costs no transaction decoding at all.
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
  ) {}

  /** A decoded block: run by the replay, or with its receipts from a snapshot. */
  static of(block: Block, stateRoot: Uint8Array, receipts: readonly ReceiptInfo[] | (() => readonly ReceiptInfo[])): StoredBlock {
    const read = typeof receipts === 'function' ? receipts : () => receipts;
    const stored = new StoredBlock(block.header, block.hash(), block.transactions.map((tx) => tx.hash()), stateRoot, () => block, read);
    stored.decoded = block;
    return stored;
  }

  /** A block of `rlp` whose root and receipts come from a snapshot; `decode` makes the Block when needed. */
  static restored(rlp: Uint8Array, common: Common, stateRoot: Uint8Array, decode: () => Block, receipts: () => readonly ReceiptInfo[]): StoredBlock {
    const [headerFields, txs] = RLP.decode(rlp) as unknown as [Uint8Array[], (Uint8Array | Uint8Array[])[]];
    const header = createBlockHeaderFromBytesArray(headerFields as never, { common, setHardfork: true, skipConsensusFormatValidation: true });
    const keccak = common.customCrypto.keccak256!;
    // a typed transaction is a byte string in the body, a legacy one a list (EIP-2718)
    const txHashes = txs.map((tx) => keccak(tx instanceof Uint8Array ? tx : RLP.encode(tx)));
    return new StoredBlock(header, header.hash(), txHashes, stateRoot, decode, receipts);
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
