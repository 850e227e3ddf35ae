// A block of a loaded fixture chain: number, hash, post-state root, receipts, the decoded block, and
// the recording of its call frames the load made (encoded: recordingCodec/).
// A block the fixture gives as RLP keeps those bytes and its receipts encoded (snapshotData.ts), and
// decodes the block, and parses the receipts, when something asks for them, into the chain's
// DecodedCache: a bounded number of blocks' decoded forms is kept, whatever walks the chain, and a
// block asked for again is decoded again. So does a chain restored from a snapshot, which knows a
// block by its header (the first item of its RLP) and the transaction hashes the snapshot keeps: a
// start from a snapshot decodes no transaction at all. A block decoded again takes each
// transaction's sender from its receipt (blocks.ts decodeBlockAgain): no signature is recovered for
// it. The genesis, a tracer test's block and a block not given as RLP keep their Block.
import { type Block, type BlockHeader, createBlockHeaderFromBytesArray } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt } from '@ethereumjs/util';
import type { ChainBlock, ReceiptInfo } from './chainView.ts';
import type { DecodedCache } from './decodedCache.ts';
import { rlpItem } from './rlpItem.ts';

/** What a snapshot restore checks of a block's header, read without making the header. */
export interface HeaderFacts {
  readonly number: bigint;
  readonly parentHash: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly gasUsed: bigint;
  readonly timestamp: bigint;
}

/** Makes a block again, each transaction without a sender of its own taking the one `senderOf` gives (blocks.ts decodeBlockAgain). */
export type DecodeAgain = (senderOf: (index: number) => Uint8Array) => Block;

export class StoredBlock implements ChainBlock {
  private constructor(
    /** The header, or how to make it when first asked for. */
    private headerOrMake: BlockHeader | (() => BlockHeader),
    /** Its header's fields that a restore checks. */
    readonly facts: HeaderFacts,
    readonly hash: Uint8Array,
    /** Hashes of its transactions, in order. */
    readonly txHashes: readonly Uint8Array[],
    /** Post-state root of this block. */
    readonly stateRoot: Uint8Array,
    /** Its Block, kept; or how to decode it when asked for (kept by `cache` a while). */
    private readonly source: Block | DecodeAgain,
    /** Its receipts, kept; or how to parse them when asked for (kept by `cache` a while). */
    private readonly receiptSource: readonly ReceiptInfo[] | (() => readonly ReceiptInfo[]),
    private readonly cache: DecodedCache,
    /** Its frames-only recording as the load made it, encoded (recordingCodec/encodeRecording.ts). */
    readonly recording: Uint8Array | undefined,
  ) {}

  /** A decoded block that keeps its Block: the genesis, a tracer test's, one the fixture gives as JSON. */
  static of(block: Block, stateRoot: Uint8Array, receipts: readonly ReceiptInfo[] | (() => readonly ReceiptInfo[]), cache: DecodedCache, recording?: Uint8Array): StoredBlock {
    return new StoredBlock(block.header, block.header, block.hash(), block.transactions.map((tx) => tx.hash()), stateRoot, block, receipts, cache, recording);
  }

  /**
   * A block the replay ran, from the fixture's RLP: its header is kept, the Block dropped (the
   * replay's carries the sender pool's methods, senders.ts) and made again by `decode` when asked for.
   */
  static replayed(block: Block, stateRoot: Uint8Array, txHashes: readonly Uint8Array[], decode: DecodeAgain, receipts: () => readonly ReceiptInfo[], cache: DecodedCache, recording: Uint8Array): StoredBlock {
    return new StoredBlock(block.header, block.header, block.hash(), txHashes, stateRoot, decode, receipts, cache, recording);
  }

  /**
   * A block of `rlp` whose root, transaction hashes and receipts come from a snapshot: its header's
   * fields are read from the RLP now, and its hash is the keccak of the header's bytes; the
   * BlockHeader (a Common copied and set to its fork: costly while the code is cold) is made when
   * first asked for, the Block when needed.
   */
  static restored(
    rlp: Uint8Array, common: Common, hash: Uint8Array, stateRoot: Uint8Array, txHashes: readonly Uint8Array[], decode: DecodeAgain, receipts: () => readonly ReceiptInfo[], cache: DecodedCache, recording: Uint8Array,
  ): StoredBlock {
    // the block is the list [header, transactions, uncles, …]: past its length prefix, the header
    // is the first item, decoded alone (RLP's stream mode would copy all the rest of the block)
    const item = rlpItem(rlp, rlpItem(rlp, 0).start);
    const header = rlp.subarray(item.head, item.end);
    const fields = RLP.decode(header) as Uint8Array[];
    // the yellow paper's header order: parentHash, uncles, coinbase, stateRoot, txRoot, receiptRoot,
    // logsBloom, difficulty, number, gasLimit, gasUsed, timestamp, …
    const facts: HeaderFacts = {
      parentHash: fields[0]!, stateRoot: fields[3]!, logsBloom: fields[6]!, number: bytesToBigInt(fields[8]!), gasUsed: bytesToBigInt(fields[10]!), timestamp: bytesToBigInt(fields[11]!),
    };
    const make = (): BlockHeader => createBlockHeaderFromBytesArray(fields as never, { common, setHardfork: true, skipConsensusFormatValidation: true });
    // the hash the replay computed (the keccak of the canonical header): hashing 1,000 headers with
    // the JavaScript keccak the start has was a fifth of a start from the snapshot
    return new StoredBlock(make, facts, hash, txHashes, stateRoot, decode, receipts, cache, recording);
  }

  get header(): BlockHeader {
    if (typeof this.headerOrMake === 'function') this.headerOrMake = this.headerOrMake();
    return this.headerOrMake;
  }

  get number(): bigint {
    return this.facts.number;
  }

  get timestamp(): bigint {
    return this.facts.timestamp;
  }

  get block(): Block {
    const decode = this.source;
    if (typeof decode !== 'function') return decode;
    // the senders the replay found, in the receipts: read only if a transaction's sender is asked for
    return this.cache.block(this, this.txHashes.length, () => decode((index) => this.receipts[index]!.from));
  }

  get receipts(): readonly ReceiptInfo[] {
    const parse = this.receiptSource;
    return typeof parse === 'function' ? this.cache.receiptList(this, parse) : parse;
  }
}
