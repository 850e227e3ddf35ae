// The decoded forms of a chain's blocks, within a bound. A block given as RLP keeps those bytes, and
// every block of a load keeps its receipts encoded (snapshotData.ts); the ethereumjs Block and the
// parsed receipts are made when asked for and kept here, one cache for all the chain's blocks, the
// least recently used dropped first once there are more blocks, or more transactions, than the
// limits; a block asked for again is decoded again. A walk over every block of a 100,000-transaction
// chain (full blocks, traces, receipts, logs) then holds a few hundred blocks' objects, not the
// chain's (docs/performance.md "Long chains").
import type { Block } from '@ethereumjs/block';
import type { ReceiptInfo } from './chainView.ts';

/** How much each of the two caches keeps: at most `blocks` blocks' worth, of `transactions` transactions in all. */
export interface DecodedLimits {
  readonly blocks: number;
  readonly transactions: number;
}

/**
 * 32,768 decoded transactions and as many parsed receipts (256 blocks of 128). A chain of up to that
 * many (every shipped chain) is decoded once; a longer one is bounded, and a block dropped is
 * decoded again when asked for. The bound is large because a walk that comes back to blocks it read
 * (the Otterscan search after a full-block walk) pays for every block dropped meanwhile: a smaller
 * one made that search many times slower (docs/performance.md, "Decoded blocks and receipts").
 */
export const DECODED_LIMITS: DecodedLimits = { blocks: 256, transactions: 32_768 };

/** A map that keeps the most recently used entries within a count and a sum of their transactions. */
class Recent<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly transactions: number }>();
  private sum = 0;

  constructor(private readonly limits: DecodedLimits) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` as the most recent, and drops the oldest past the limits (never the newest). */
  set(key: K, value: V, transactions: number): void {
    this.delete(key);
    this.entries.set(key, { value, transactions });
    this.sum += transactions;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.limits.blocks && this.sum <= this.limits.transactions)) break;
      this.entries.delete(oldest);
      this.sum -= entry.transactions;
    }
  }

  private delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.sum -= entry.transactions;
  }

  clear(): void {
    this.entries.clear();
    this.sum = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get transactions(): number {
    return this.sum;
  }
}

/** What a DecodedCache holds now. */
export interface DecodedCounts {
  readonly blocks: number;
  readonly transactions: number;
  readonly receiptLists: number;
  readonly receipts: number;
  /** Blocks decoded and receipt lists parsed since the chain was made (a block decoded again counts again). */
  readonly decoded: number;
  readonly parsed: number;
}

/** A chain's decoded blocks and parsed receipts, keyed by the chain's block (storedBlock.ts). */
export class DecodedCache {
  private readonly blocks: Recent<object, Block>;
  private readonly receipts: Recent<object, readonly ReceiptInfo[]>;
  private decoded = 0;
  private parsed = 0;

  constructor(limits: DecodedLimits = DECODED_LIMITS) {
    this.blocks = new Recent(limits);
    this.receipts = new Recent(limits);
  }

  /** `owner`'s Block: the one kept, or `decode`'s, then kept. */
  block(owner: object, transactions: number, decode: () => Block): Block {
    let block = this.blocks.get(owner);
    if (block === undefined) {
      block = decode();
      this.decoded++;
      this.blocks.set(owner, block, transactions);
    }
    return block;
  }

  /** `owner`'s receipts: the ones kept, or `parse`'s, then kept. */
  receiptList(owner: object, parse: () => readonly ReceiptInfo[]): readonly ReceiptInfo[] {
    let receipts = this.receipts.get(owner);
    if (receipts === undefined) {
      receipts = parse();
      this.parsed++;
      this.receipts.set(owner, receipts, receipts.length);
    }
    return receipts;
  }

  counts(): DecodedCounts {
    return { blocks: this.blocks.size, transactions: this.blocks.transactions, receiptLists: this.receipts.size, receipts: this.receipts.transactions, decoded: this.decoded, parsed: this.parsed };
  }

  /** Drops every decoded block and parsed receipt list (each is made again when next asked for). */
  clear(): void {
    this.blocks.clear();
    this.receipts.clear();
  }
}
