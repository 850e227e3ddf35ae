// An index of a fixture chain's transactions, built once at load from the replay's recordings and
// kept in the replay snapshot (chainIndex/encode.ts): which transactions touched each address (the
// Otterscan address searches), who created each contract (ots_getContractCreator), and which
// transaction a sender sent with each nonce (ots_getTransactionBySenderAndNonce). A transaction is
// known by its position in the chain (its id: 0 for the first transaction of the first block); every
// lookup costs a map read and a binary search, whatever the chain's length.

/** What one transaction adds to the index (addresses as lowercase 0x hex). */
export interface IndexedTx {
  /** The addresses its traces name, each once. */
  readonly touched: Iterable<string>;
  /** Contracts it created (a result kept), in trace order: the last one of an address wins. */
  readonly creations: readonly { readonly address: string; readonly creator: string }[];
  readonly sender: string;
  readonly nonce: bigint;
}

export interface Creation {
  /** The creating transaction's id. */
  readonly tx: number;
  readonly creator: string;
}

/** The index's contents, as the builder makes them and the snapshot restores them. */
export interface ChainIndexData {
  /** Number of the chain's first block (its genesis). */
  readonly firstBlock: bigint;
  /** Transactions of each block, the genesis first. */
  readonly blockTxCounts: readonly number[];
  /** Address → ids of the transactions that touched it, ascending. */
  readonly postings: ReadonlyMap<string, Uint32Array>;
  readonly creators: ReadonlyMap<string, Creation>;
  /** Sender of each transaction (an index into `senders`) and its nonce. */
  readonly senders: readonly string[];
  readonly txSender: Uint32Array;
  readonly txNonce: BigUint64Array;
}

const EMPTY = new Uint32Array(0);

export class ChainIndex {
  /** Block (counted from the first) of each transaction. */
  private blockOfTx: Uint32Array | undefined;
  /** Id of each block's first transaction. */
  private firstTxOf: Uint32Array | undefined;
  private bySenderNonce: Map<string, number> | undefined;
  private loaded: ChainIndexData | undefined;

  /** @param read the contents: given, or decoded when first needed (a snapshot's). */
  constructor(private readonly read: () => ChainIndexData) {}

  get data(): ChainIndexData {
    return (this.loaded ??= this.read());
  }

  /** Ids of the transactions that touched `address` (lowercase 0x hex), ascending. */
  postings(address: string): Uint32Array {
    return this.data.postings.get(address) ?? EMPTY;
  }

  /** The block number of transaction `id`. */
  blockOf(id: number): bigint {
    return this.data.firstBlock + BigInt(this.blocks().blockOfTx[id]!);
  }

  /** Where transaction `id` sits: its block's number and its index in the block. */
  locate(id: number): { readonly block: bigint; readonly index: number } {
    const { blockOfTx, firstTxOf } = this.blocks();
    const b = blockOfTx[id]!;
    return { block: this.data.firstBlock + BigInt(b), index: id - firstTxOf[b]! };
  }

  /** The last creation of `address`, if any trace created it. */
  creator(address: string): Creation | undefined {
    return this.data.creators.get(address);
  }

  /**
   * The id of the transaction `sender` sent with `nonce`. Were there several, anvil's scan (blocks
   * from the head down, each in order) finds the one of the latest block, the first in it.
   */
  sentWith(sender: string, nonce: bigint): number | undefined {
    if (this.bySenderNonce === undefined) {
      const { senders, txSender, txNonce } = this.data;
      const map = new Map<string, number>();
      const { blockOfTx } = this.blocks();
      for (let id = 0; id < txSender.length; id++) {
        const key = `${senders[txSender[id]!]!}:${txNonce[id]!}`;
        const seen = map.get(key);
        if (seen === undefined || blockOfTx[seen]! < blockOfTx[id]!) map.set(key, id);
      }
      this.bySenderNonce = map;
    }
    return this.bySenderNonce.get(`${sender}:${nonce}`);
  }

  private blocks(): { blockOfTx: Uint32Array; firstTxOf: Uint32Array } {
    if (this.blockOfTx === undefined || this.firstTxOf === undefined) {
      const counts = this.data.blockTxCounts;
      const firstTxOf = new Uint32Array(counts.length);
      let total = 0;
      counts.forEach((n, b) => {
        firstTxOf[b] = total;
        total += n;
      });
      const blockOfTx = new Uint32Array(total);
      counts.forEach((n, b) => blockOfTx.fill(b, firstTxOf[b]!, firstTxOf[b]! + n));
      this.blockOfTx = blockOfTx;
      this.firstTxOf = firstTxOf;
    }
    return { blockOfTx: this.blockOfTx, firstTxOf: this.firstTxOf };
  }
}

/** Makes the index block by block, in chain order, as the replay runs them. */
export class ChainIndexBuilder {
  private readonly counts: number[] = [];
  /** Address → the ids that touched it: one id as a number (most addresses: a transfer's recipient), more as an array. */
  private readonly lists = new Map<string, number | number[]>();
  private readonly creators = new Map<string, Creation>();
  private readonly senders: string[] = [];
  private readonly senderIds = new Map<string, number>();
  private readonly txSender: number[] = [];
  private readonly txNonce: bigint[] = [];

  constructor(private readonly firstBlock: bigint) {}

  /** Adds the next block's transactions (the genesis: none). */
  addBlock(txs: readonly IndexedTx[]): void {
    for (const tx of txs) {
      const id = this.txSender.length;
      for (const address of tx.touched) {
        const list = this.lists.get(address);
        if (list === undefined) this.lists.set(address, id);
        else if (typeof list === 'number') this.lists.set(address, [list, id]);
        else list.push(id);
      }
      for (const { address, creator } of tx.creations) this.creators.set(address, { tx: id, creator });
      let sender = this.senderIds.get(tx.sender);
      if (sender === undefined) {
        sender = this.senders.push(tx.sender) - 1;
        this.senderIds.set(tx.sender, sender);
      }
      this.txSender.push(sender);
      this.txNonce.push(tx.nonce);
    }
    this.counts.push(txs.length);
  }

  build(): ChainIndex {
    const postings = new Map<string, Uint32Array>();
    for (const [address, ids] of this.lists) postings.set(address, typeof ids === 'number' ? Uint32Array.of(ids) : Uint32Array.from(ids));
    this.lists.clear();
    const data: ChainIndexData = {
      firstBlock: this.firstBlock,
      blockTxCounts: this.counts,
      postings,
      creators: this.creators,
      senders: this.senders,
      txSender: Uint32Array.from(this.txSender),
      txNonce: BigUint64Array.from(this.txNonce),
    };
    return new ChainIndex(() => data);
  }
}
