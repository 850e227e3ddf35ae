// Every log of a fixture chain, indexed once per chain: block number order, each with its address
// and topics as hex keys for matching and its go-ethereum JSON built on first use.
import { hexBytes } from '../../encoding/hex.ts';
import type { ChainBlock, ChainView, ReceiptInfo } from '../../replay/chainView.ts';
import { formatLog } from './ethJson.ts';

interface IndexedLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly block: ChainBlock;
  readonly receipt: ReceiptInfo;
  readonly txIndex: number;
  readonly logInTx: number;
  json?: Record<string, unknown>;
}

/** Hex match criteria: an empty list matches anything. */
export interface LogMatch {
  readonly addresses: readonly string[];
  readonly topics: readonly (readonly string[])[];
}

export class LogIndex {
  /** Logs of block `first + i` at `byBlock[i]`. */
  private readonly byBlock: IndexedLog[][] = [];
  private readonly first: bigint;

  private constructor(chain: ChainView) {
    this.first = chain.genesis.number;
    for (let n = chain.genesis.number; n <= chain.head.number; n++) {
      const block = chain.blockByNumber(n);
      const logs: IndexedLog[] = [];
      if (block !== undefined) {
        chain.receipts(block).forEach((receipt, txIndex) =>
          receipt.logs.forEach((log, logInTx) =>
            logs.push({ address: hexBytes(log.address), topics: log.topics.map(hexBytes), block, receipt, txIndex, logInTx }),
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

  /** Matching logs of blocks `from..to` (inclusive), in chain order (eth/filters/filter.go filterLogs). */
  find(from: bigint, to: bigint, match: LogMatch): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    const start = Number(from - this.first);
    const end = Math.min(Number(to - this.first), this.byBlock.length - 1);
    for (let i = Math.max(start, 0); i <= end; i++) {
      for (const log of this.byBlock[i]!) if (matches(log, match)) out.push(jsonOf(log));
    }
    return out;
  }
}

function matches(log: IndexedLog, match: LogMatch): boolean {
  if (match.addresses.length > 0 && !match.addresses.includes(log.address)) return false;
  if (match.topics.length > log.topics.length) return false;
  return match.topics.every((set, i) => set.length === 0 || set.includes(log.topics[i]!));
}

function jsonOf(log: IndexedLog): Record<string, unknown> {
  return (log.json ??= formatLog(log.block, log.txIndex, log.receipt, log.logInTx));
}
