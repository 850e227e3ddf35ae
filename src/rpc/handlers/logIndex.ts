// eth_getLogs over a chain's log table (chainIndex/logTable.ts): every log's address and topics as
// ids, its place, its topic count and data length; nothing of the JSON itself. A fixture chain's
// table is made at load and kept in the replay snapshot; a chain without one (upstream mode) has it
// made here once, on the first request, from every block's receipts read without keeping them. An
// answer that would pass the response limit is go-ethereum's -32003 from the table alone (each log's
// JSON size follows from it), before any receipt is read; one within it reads the receipts of the
// blocks that match without keeping them, so a request over the whole chain holds no block's
// receipts or decoded transactions after it.
import { type LogTable, type LogTableData, LogTableBuilder } from '../../chainIndex/logTable.ts';
import { ResponseTooLargeError } from '../../errors/rpcErrors.ts';
import { type ChainBlock, type ChainView, type ReceiptInfo, receiptsOnce } from '../../replay/chainView.ts';
import { formatLog } from './ethJson.ts';

/** Match criteria: an empty list matches anything. */
export interface LogMatch {
  readonly addresses: readonly Uint8Array[];
  readonly topics: readonly (readonly Uint8Array[])[];
}

/** The criteria as ids of the table's values; undefined: any value. */
interface IdMatch {
  readonly addresses: ReadonlySet<number> | undefined;
  readonly topics: readonly (ReadonlySet<number> | undefined)[];
}

/** Hex digits of a quantity as go-ethereum writes it (`0x0` for zero). */
const digits = (n: bigint | number): number => (n === 0 || n === 0n ? 1 : n.toString(16).length);

/**
 * Bytes of formatLog's JSON of a log: the fixed part (keys, address, two hashes, `removed`, the
 * `0x` of each quantity) measured once from the same object shape, then its block's quantities, and
 * its topics, data and the digits of its own. test/rpc/logsBounded.test.ts checks it against every
 * log written.
 */
const FIXED_BYTES = JSON.stringify({
  address: `0x${'0'.repeat(40)}`, topics: [], data: '0x', blockNumber: '0x', transactionHash: `0x${'0'.repeat(64)}`,
  transactionIndex: '0x', blockHash: `0x${'0'.repeat(64)}`, blockTimestamp: '0x', logIndex: '0x', removed: false,
}).length;
type BlockAt = { readonly number: bigint; readonly timestamp: bigint };
const blockBytes = (block: BlockAt): number => FIXED_BYTES + digits(block.number) + digits(block.timestamp);
const ownBytes = (txIndex: number, logIndex: number, topics: number, dataBytes: number): number =>
  (topics === 0 ? 0 : topics * 69 - 1) + 2 * dataBytes + digits(txIndex) + digits(logIndex);
export function logJsonBytes(block: BlockAt, txIndex: number, logIndex: number, topics: number, dataBytes: number): number {
  return blockBytes(block) + ownBytes(txIndex, logIndex, topics, dataBytes);
}

export class LogIndex {
  private constructor(
    private readonly chain: ChainView,
    private readonly table: LogTable,
  ) {}

  private static readonly built = new WeakMap<ChainView, LogIndex>();

  static of(chain: ChainView): LogIndex {
    let index = LogIndex.built.get(chain);
    if (index === undefined) LogIndex.built.set(chain, (index = new LogIndex(chain, chain.logTable ?? tableOf(chain))));
    return index;
  }

  /**
   * Matching logs of blocks `from..to` (inclusive), in chain order (eth/filters/filter.go
   * filterLogs). With `maxBytes` (the response limit; 0: none), go-ethereum's -32003 when their
   * JSON would take more than that, found from the table before any log is written.
   */
  find(from: bigint, to: bigint, match: LogMatch, maxBytes = 0): Record<string, unknown>[] {
    const d = this.table.data;
    const ids = idMatch(this.table, match);
    if (ids === undefined) return [];
    const start = Math.max(Number(from - d.firstBlock), 0);
    const end = Math.min(Number(to - d.firstBlock), d.blockLogs.length - 2);
    if (maxBytes > 0) {
      // the array's brackets and commas, and each log's JSON
      let bytes = 1;
      for (let b = start; b <= end; b++) {
        const first = d.blockLogs[b]!;
        // its block's part, once a log of it matches
        let block = 0;
        for (let log = first, topic = d.blockTopics[b]!; log < d.blockLogs[b + 1]!; topic += d.topicCount[log++]!) {
          if (!matches(d, log, topic, ids)) continue;
          if (block === 0) {
            const at = this.blockAt(b);
            block = blockBytes({ number: at.number, timestamp: at.timestamp ?? at.block.header.timestamp });
          }
          bytes += block + ownBytes(d.tx[log]!, log - first, d.topicCount[log]!, d.dataBytes[log]!) + 1;
          if (bytes > maxBytes) throw new ResponseTooLargeError();
        }
      }
    }
    const out: Record<string, unknown>[] = [];
    for (let b = start; b <= end; b++) {
      // the block and its receipts, read once a log of it matches
      let read: { block: ChainBlock; receipts: readonly ReceiptInfo[] } | undefined;
      // a log's index among its transaction's logs: they follow each other
      let tx = -1;
      let inTx = 0;
      for (let log = d.blockLogs[b]!, topic = d.blockTopics[b]!; log < d.blockLogs[b + 1]!; topic += d.topicCount[log++]!) {
        inTx = d.tx[log] === tx ? inTx + 1 : 0;
        tx = d.tx[log]!;
        if (!matches(d, log, topic, ids)) continue;
        if (read === undefined) {
          const block = this.blockAt(b);
          read = { block, receipts: receiptsOnce(this.chain, block) };
        }
        out.push(formatLog(read.block, tx, read.receipts[tx]!, inTx));
      }
    }
    return out;
  }

  /** Block `b` of the table (counted from its first). */
  private blockAt(b: number): ChainBlock {
    return this.chain.blockByNumber(this.table.data.firstBlock + BigInt(b))!;
  }
}

/** The log table of a chain that has none made at load, from every block's receipts. */
function tableOf(chain: ChainView): LogTable {
  const table = new LogTableBuilder(chain.genesis.number);
  for (let n = chain.genesis.number; n <= chain.head.number; n++) {
    const block = chain.blockByNumber(n);
    table.addBlock(block === undefined ? [] : receiptsOnce(chain, block).map((receipt) => receipt.logs));
  }
  return table.build();
}

/** The criteria as ids; undefined when a position names only values no log has (nothing matches). */
function idMatch(table: LogTable, match: LogMatch): IdMatch | undefined {
  const known = (values: readonly Uint8Array[], id: (value: Uint8Array) => number | undefined): ReadonlySet<number> | undefined | null => {
    if (values.length === 0) return undefined;
    const ids = new Set<number>();
    for (const value of values) {
      const i = id(value);
      if (i !== undefined) ids.add(i);
    }
    return ids.size === 0 ? null : ids;
  };
  const addresses = known(match.addresses, (a) => table.addressId(a));
  const topics = match.topics.map((set) => known(set, (t) => table.topicId(t)));
  if (addresses === null || topics.includes(null)) return undefined;
  return { addresses, topics: topics as (ReadonlySet<number> | undefined)[] };
}

function matches(d: LogTableData, log: number, topic: number, match: IdMatch): boolean {
  if (match.addresses !== undefined && !match.addresses.has(d.address[log]!)) return false;
  if (match.topics.length > d.topicCount[log]!) return false;
  return match.topics.every((set, i) => set === undefined || set.has(d.topics[topic + i]!));
}
