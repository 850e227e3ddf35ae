// Every log of a fixture chain, indexed once per chain: block number order, each with its address
// and topics as hex keys for matching (one string per distinct value), where it is, and the bytes
// its JSON takes; nothing of the JSON itself. An answer that would pass the response limit is
// go-ethereum's -32003 from the index alone, before any receipt is read; one within it reads the
// receipts of the blocks that match without keeping them, so a request over the whole chain holds
// no block's receipts or decoded transactions after it.
import { hexBytes } from '../../encoding/hex.ts';
import { ResponseTooLargeError } from '../../errors/rpcErrors.ts';
import { type ChainBlock, type ChainView, type ReceiptInfo, receiptsOnce } from '../../replay/chainView.ts';
import { formatLog } from './ethJson.ts';

interface IndexedLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly txIndex: number;
  readonly logInTx: number;
  /** Bytes of its JSON (ethJson.ts formatLog, written by encoding/json.ts). */
  readonly bytes: number;
}

/** Hex match criteria: an empty list matches anything. */
export interface LogMatch {
  readonly addresses: readonly string[];
  readonly topics: readonly (readonly string[])[];
}

/** Hex digits of a quantity as go-ethereum writes it (`0x0` for zero). */
const digits = (n: bigint | number): number => (n === 0 || n === 0n ? 1 : n.toString(16).length);

/**
 * Bytes of formatLog's JSON of a log: the fixed part (keys, address, two hashes, `removed`, the
 * `0x` of each quantity) measured once from the same object shape, then its topics, data and the
 * digits of its quantities. test/rpc/logsBounded.test.ts checks it against every log written.
 */
const FIXED_BYTES = JSON.stringify({
  address: `0x${'0'.repeat(40)}`, topics: [], data: '0x', blockNumber: '0x', transactionHash: `0x${'0'.repeat(64)}`,
  transactionIndex: '0x', blockHash: `0x${'0'.repeat(64)}`, blockTimestamp: '0x', logIndex: '0x', removed: false,
}).length;
export function logJsonBytes(block: { readonly number: bigint; readonly timestamp: bigint }, txIndex: number, logIndex: number, topics: number, dataBytes: number): number {
  return FIXED_BYTES + (topics === 0 ? 0 : topics * 69 - 1) + 2 * dataBytes + digits(block.number) + digits(txIndex) + digits(block.timestamp) + digits(logIndex);
}

export class LogIndex {
  /** Logs of block `first + i` at `byBlock[i]`. */
  private readonly byBlock: IndexedLog[][] = [];
  private readonly first: bigint;

  private constructor(private readonly chain: ChainView) {
    this.first = chain.genesis.number;
    // each distinct address and topic once: a token's Transfer topic is one string, not one per log
    const keys = new Map<string, string>();
    const key = (bytes: Uint8Array): string => {
      const hex = hexBytes(bytes);
      const known = keys.get(hex);
      if (known !== undefined) return known;
      keys.set(hex, hex);
      return hex;
    };
    for (let n = chain.genesis.number; n <= chain.head.number; n++) {
      const block = chain.blockByNumber(n);
      const logs: IndexedLog[] = [];
      if (block !== undefined) {
        const at = { number: block.number, timestamp: block.timestamp ?? block.block.header.timestamp };
        receiptsOnce(chain, block).forEach((receipt, txIndex) =>
          receipt.logs.forEach((log, logInTx) =>
            logs.push({
              address: key(log.address), topics: log.topics.map(key), txIndex, logInTx,
              bytes: logJsonBytes(at, txIndex, receipt.firstLogIndex + logInTx, log.topics.length, log.data.length),
            }),
          ),
        );
      }
      this.byBlock.push(logs);
    }
  }

  private static readonly built = new WeakMap<ChainView, LogIndex>();

  static of(chain: ChainView): LogIndex {
    let index = LogIndex.built.get(chain);
    if (index === undefined) LogIndex.built.set(chain, (index = new LogIndex(chain)));
    return index;
  }

  /**
   * Matching logs of blocks `from..to` (inclusive), in chain order (eth/filters/filter.go
   * filterLogs). With `maxBytes` (the response limit; 0: none), go-ethereum's -32003 when their
   * JSON would take more than that, found from the index before any log is written.
   */
  find(from: bigint, to: bigint, match: LogMatch, maxBytes = 0): Record<string, unknown>[] {
    const start = Math.max(Number(from - this.first), 0);
    const end = Math.min(Number(to - this.first), this.byBlock.length - 1);
    if (maxBytes > 0) {
      // the array's brackets and commas, and each log's JSON
      let bytes = 1;
      for (let i = start; i <= end; i++) {
        for (const log of this.byBlock[i]!) {
          if (!matches(log, match)) continue;
          bytes += log.bytes + 1;
          if (bytes > maxBytes) throw new ResponseTooLargeError();
        }
      }
    }
    const out: Record<string, unknown>[] = [];
    for (let i = start; i <= end; i++) {
      // the block and its receipts, read once a log of it matches
      let read: { block: ChainBlock; receipts: readonly ReceiptInfo[] } | undefined;
      for (const log of this.byBlock[i]!) {
        if (!matches(log, match)) continue;
        if (read === undefined) {
          const block = this.chain.blockByNumber(this.first + BigInt(i))!;
          read = { block, receipts: receiptsOnce(this.chain, block) };
        }
        out.push(formatLog(read.block, log.txIndex, read.receipts[log.txIndex]!, log.logInTx));
      }
    }
    return out;
  }
}

function matches(log: IndexedLog, match: LogMatch): boolean {
  if (match.addresses.length > 0 && !match.addresses.includes(log.address)) return false;
  if (match.topics.length > log.topics.length) return false;
  return match.topics.every((set, i) => set.length === 0 || set.includes(log.topics[i]!));
}
