// Which transactions of two chains are the same transaction (`blocktrace diff`): paired by sender and
// nonce where those identify one transaction on each side, else by position (block, index): a
// transaction without a sender, or a sender and nonce a side has twice. What is left is one side's.
// Pure: the transactions come from each side's blocks and receipts (diffChains.ts).

/** Where a transaction is on its chain. */
export interface TxPlace {
  readonly block: bigint;
  readonly index: number;
}

export interface Log {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

/** A transaction of one side as the pairing and the counts need it. */
export interface Tx extends TxPlace {
  readonly hash: string;
  readonly sender?: string;
  readonly nonce?: bigint;
  readonly gasUsed: bigint;
  readonly status?: string;
  readonly logs: readonly Log[];
}

const placeKey = (p: TxPlace): string => `${p.block}/${p.index}`;

export type PairedBy = 'sender and nonce' | 'position';

/**
 * The pairs (A's order), and what each side has alone (each side's order). A sender and nonce pairs
 * when it is on each side once at most; a transaction without them, or whose sender and nonce a side
 * has twice, pairs with the like transaction at its place on the other side.
 */
export function pairUp(txsA: readonly Tx[], txsB: readonly Tx[]): { pairs: [Tx, Tx, PairedBy][]; onlyA: Tx[]; onlyB: Tx[] } {
  const raw = (tx: Tx): string | undefined => (tx.sender === undefined || tx.nonce === undefined ? undefined : `${tx.sender}/${tx.nonce}`);
  const twice = new Set<string>();
  for (const txs of [txsA, txsB]) {
    const seen = new Set<string>();
    for (const key of txs.map(raw)) {
      if (key !== undefined && seen.has(key)) twice.add(key);
      if (key !== undefined) seen.add(key);
    }
  }
  const keyOf = (tx: Tx): string | undefined => {
    const key = raw(tx);
    return key === undefined || twice.has(key) ? undefined : key;
  };
  const keyedB = new Map<string, Tx>();
  const looseB = new Map<string, Tx>();
  for (const tx of txsB) {
    const key = keyOf(tx);
    if (key === undefined) looseB.set(placeKey(tx), tx);
    else keyedB.set(key, tx);
  }
  const paired = new Set<Tx>();
  const pairs: [Tx, Tx, PairedBy][] = [];
  const onlyA: Tx[] = [];
  for (const tx of txsA) {
    const key = keyOf(tx);
    const other = key === undefined ? looseB.get(placeKey(tx)) : keyedB.get(key);
    if (other === undefined) {
      onlyA.push(tx);
      continue;
    }
    paired.add(other);
    pairs.push([tx, other, key === undefined ? 'position' : 'sender and nonce']);
  }
  return { pairs, onlyA, onlyB: txsB.filter((tx) => !paired.has(tx)) };
}

/** Logs of the two receipts that differ (address, topics, data), those on one side only included. */
export function logsDiffering(a: readonly Log[], b: readonly Log[]): number {
  const same = (x: Log, y: Log): boolean => x.address.toLowerCase() === y.address.toLowerCase() && x.data === y.data && x.topics.length === y.topics.length && x.topics.every((t, i) => t === y.topics[i]);
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (!same(a[i]!, b[i]!)) n++;
  return n;
}

