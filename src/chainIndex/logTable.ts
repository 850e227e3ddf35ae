// Every log of a chain as a table of numbers, made once (at load from the replay's receipts, kept in
// the replay snapshot: chainIndex/encodeLogTable.ts; or from a chain's receipts when first needed):
// per log its address and topics as ids into two sorted tables of the distinct values, its
// transaction's index in the block, its topic count and the length of its data; per block where its
// logs start. A log's index in its block is its place among the block's logs. Nothing of the data
// itself: an eth_getLogs answer reads the receipts of the blocks that match (rpc/handlers/logIndex.ts).
// Some 13 bytes a log and 4 a topic, in typed arrays: no object per log at millions of them.

/** A log as a receipt holds it (replay/chainView.ts ReceiptInfo). */
export interface LogSource {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
}

/** The table's contents, as the builder makes them and the snapshot restores them. */
export interface LogTableData {
  /** Number of the chain's first block (its genesis). */
  readonly firstBlock: bigint;
  /** Id of each block's first log, then the number of logs (one more entry than blocks). */
  readonly blockLogs: Uint32Array;
  /** Where each block's first log's topics start in `topics`, then their number. */
  readonly blockTopics: Uint32Array;
  /** Per log: its address (an index into `addresses`). */
  readonly address: Uint32Array;
  /** Per log: its transaction's index in the block. */
  readonly tx: Uint32Array;
  /** Per log: bytes of its data. */
  readonly dataBytes: Uint32Array;
  /** Per log: its number of topics (0–4). */
  readonly topicCount: Uint8Array;
  /** The topics of every log in order (indices into `topicValues`). */
  readonly topics: Uint32Array;
  /** The distinct addresses, 20 bytes each, ascending. */
  readonly addresses: Uint8Array;
  /** The distinct topics, 32 bytes each, ascending. */
  readonly topicValues: Uint8Array;
}

export const ADDRESS_BYTES = 20;
export const TOPIC_BYTES = 32;

export class LogTable {
  private loaded: LogTableData | undefined;

  /** @param read the contents: given, or decoded when first needed (a snapshot's). */
  constructor(private readonly read: () => LogTableData) {}

  get data(): LogTableData {
    return (this.loaded ??= this.read());
  }

  /** The id of `address` among the table's addresses; undefined when no log has it. */
  addressId(address: Uint8Array): number | undefined {
    return find(this.data.addresses, ADDRESS_BYTES, address);
  }

  /** The id of `topic` among the table's topics; undefined when no log has it. */
  topicId(topic: Uint8Array): number | undefined {
    return find(this.data.topicValues, TOPIC_BYTES, topic);
  }
}

/** Binary search of the sorted `width`-byte values in `table`. */
function find(table: Uint8Array, width: number, value: Uint8Array): number | undefined {
  if (value.length !== width) return undefined;
  const values = Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  let lo = 0;
  let hi = table.length / width - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const order = values.compare(value, 0, width, mid * width, (mid + 1) * width);
    if (order === 0) return mid;
    if (order < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** A Uint32Array that grows as it is pushed to. */
class U32List {
  private items = new Uint32Array(1024);
  length = 0;

  push(n: number): void {
    if (this.length === this.items.length) {
      const grown = new Uint32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.length++] = n;
  }

  toArray(): Uint32Array {
    return this.items.slice(0, this.length);
  }
}

/** Each distinct value once, by its bytes (as latin1 text: one character a byte, ordered as the bytes are). */
class Interned {
  readonly ids = new Map<string, number>();

  id(bytes: Uint8Array): number {
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    let id = this.ids.get(key);
    if (id === undefined) this.ids.set(key, (id = this.ids.size));
    return id;
  }

  /** The values ascending, as one buffer, and the new id of each old one. */
  sorted(): { values: Uint8Array; newId: Uint32Array } {
    const keys = [...this.ids.keys()].sort();
    const newId = new Uint32Array(keys.length);
    keys.forEach((key, i) => (newId[this.ids.get(key)!] = i));
    return { values: new Uint8Array(Buffer.from(keys.join(''), 'latin1')), newId };
  }
}

/** Makes the table block by block, in chain order, as the replay runs them (or a chain's receipts are read). */
export class LogTableBuilder {
  private readonly blockLogs = new U32List();
  private readonly blockTopics = new U32List();
  private readonly address = new U32List();
  private readonly tx = new U32List();
  private readonly dataBytes = new U32List();
  private readonly topicCount = new U32List();
  private readonly topics = new U32List();
  private readonly addresses = new Interned();
  private readonly topicValues = new Interned();

  constructor(private readonly firstBlock: bigint) {}

  /** Adds the next block: the logs of each of its transactions, in order (the genesis: none). */
  addBlock(txs: readonly (readonly LogSource[])[]): void {
    this.blockLogs.push(this.address.length);
    this.blockTopics.push(this.topics.length);
    txs.forEach((logs, t) => {
      for (const log of logs) {
        if (log.address.length !== ADDRESS_BYTES || log.topics.some((topic) => topic.length !== TOPIC_BYTES)) throw new Error('log table: an address of other than 20 bytes or a topic of other than 32');
        this.address.push(this.addresses.id(log.address));
        this.tx.push(t);
        this.dataBytes.push(log.data.length);
        this.topicCount.push(log.topics.length);
        for (const topic of log.topics) this.topics.push(this.topicValues.id(topic));
      }
    });
  }

  build(): LogTable {
    this.blockLogs.push(this.address.length);
    this.blockTopics.push(this.topics.length);
    const addresses = this.addresses.sorted();
    const topicValues = this.topicValues.sorted();
    const data: LogTableData = {
      firstBlock: this.firstBlock,
      blockLogs: this.blockLogs.toArray(),
      blockTopics: this.blockTopics.toArray(),
      address: this.address.toArray().map((id) => addresses.newId[id]!),
      tx: this.tx.toArray(),
      dataBytes: this.dataBytes.toArray(),
      topicCount: new Uint8Array(this.topicCount.toArray()),
      topics: this.topics.toArray().map((id) => topicValues.newId[id]!),
      addresses: addresses.values,
      topicValues: topicValues.values,
    };
    return new LogTable(() => data);
  }
}
