// The documented differences between anvil 1.7.1's Otterscan answers and blocktrace's, which follows
// Otterscan's spec and Erigon there (docs/otterscan.md), applied to anvil's own recordings: the
// expected answer is anvil's, with that one difference made from anvil's data alone (its recorded
// trace_block, ots_getInternalOperations and ots_getBlockDetails answers of the same chain).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

type Json = Record<string, unknown>;
interface ParityTrace {
  readonly type: 'call' | 'create' | 'suicide' | 'reward';
  readonly action: Record<string, string>;
  readonly result: Record<string, string> | null;
  readonly traceAddress: readonly number[];
  readonly transactionHash?: string;
  readonly blockNumber: number;
  readonly transactionPosition?: number;
  readonly error?: string;
}
interface Op {
  readonly type: number;
  readonly from: string;
  readonly to: string;
  readonly value: string;
}

const resultOf = (text: string): unknown => (JSON.parse(text) as { result: unknown }).result;
const sameAddress = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const isParent = (parent: ParityTrace, child: ParityTrace): boolean =>
  child.traceAddress.length === parent.traceAddress.length + 1 && sameAddress(child.traceAddress.slice(0, -1), parent.traceAddress);

/** What the differences are made from: anvil's recordings of one chain. */
export class AnvilRecords {
  private readonly traces = new Map<string, ParityTrace[]>();
  /** Every transaction's traces, in chain order. */
  private readonly inOrder: ParityTrace[] = [];
  private readonly ops = new Map<string, Op[]>();
  private readonly txCounts = new Map<string, number>();
  /** Each block's transactions and receipts as anvil's ots_getBlockTransactions pages list them, by index. */
  private readonly listed = new Map<number, Map<number, { tx: Json; receipt: Json }>>();
  /** Whether an account has code at the head, as anvil's ots_hasCode [address, "latest"] answers. */
  private readonly codeAtHead = new Map<string, boolean>();

  constructor(golden: string, chain: string) {
    const traceDir = join(golden, 'anvil', chain);
    for (const file of readdirSync(traceDir).filter((f) => f.endsWith('.trace_block.response.json'))) {
      for (const t of resultOf(readFileSync(join(traceDir, file), 'utf8')) as ParityTrace[]) {
        if (t.transactionHash !== undefined) this.traces.set(t.transactionHash, [...(this.traces.get(t.transactionHash) ?? []), t]);
        if (t.transactionHash !== undefined) this.inOrder.push(t);
      }
    }
    // stable: each block's traces keep their order
    this.inOrder.sort((a, b) => a.blockNumber - b.blockNumber);
    const otsDir = join(golden, 'anvil-ots', chain);
    for (const dir of readdirSync(otsDir).filter((d) => d.startsWith('ots'))) {
      if (dir.endsWith('.requests')) continue;
      for (const file of readdirSync(join(otsDir, dir)).filter((f) => f.endsWith('.request.json'))) {
        const request = JSON.parse(readFileSync(join(otsDir, dir, file), 'utf8')) as { method: string; params: unknown[] };
        const response = readFileSync(join(otsDir, dir, file.replace(/request\.json$/, 'response.json')), 'utf8');
        const result = (JSON.parse(response) as { result?: unknown }).result;
        if (result === undefined || result === null) continue;
        if (request.method === 'ots_hasCode' && request.params[1] === 'latest') this.codeAtHead.set((request.params[0] as string).toLowerCase(), result as boolean);
        if (request.method === 'ots_getBlockTransactions') this.keepPage(request.params as number[], result as { fullblock: { transactions: Json[] }; receipts: Json[] });
        if (request.method === 'ots_getInternalOperations') this.ops.set(request.params[0] as string, result as Op[]);
        if (request.method === 'ots_getBlockDetails') {
          const block = (result as { block: Json }).block;
          this.txCounts.set(block['number'] as string, block['transactionCount'] as number);
        }
      }
    }
  }

  /** anvil's page `page` of `size` holds the block's transactions from `page * size` on. */
  private keepPage([number, page, size]: number[], result: { fullblock: { transactions: Json[] }; receipts: Json[] }): void {
    if (!Number.isSafeInteger(page! * size!)) return;
    const block = this.listed.get(number!) ?? new Map<number, { tx: Json; receipt: Json }>();
    result.fullblock.transactions.forEach((tx, i) => block.set(page! * size! + i, { tx, receipt: result.receipts[i]! }));
    this.listed.set(number!, block);
  }

  /**
   * Erigon's page `page` of `size` (otterscan_api.go GetBlockTransactions: the slice
   * `[len - (page + 1) * size, len - page * size)`, clamped at 0), made of the transactions and
   * receipts anvil listed on its own pages of the block.
   */
  erigonPage(number: number, page: number, size: number): { txs: Json[]; receipts: Json[] } {
    const count = this.transactionCount(`0x${number.toString(16)}`);
    const end = Math.max(0, count - page * size);
    const start = Math.max(0, count - page * size - size);
    const block = this.listed.get(number);
    const items = Array.from({ length: end - start }, (_, i) => {
      const item = block?.get(start + i);
      if (item === undefined) throw new Error(`no anvil page of block ${number} lists transaction ${start + i}`);
      return item;
    });
    return { txs: items.map((i) => i.tx), receipts: items.map((i) => i.receipt) };
  }

  /**
   * Whether the account has code at the head, from anvil's traces: a creation that succeeded with
   * code gives it code, a self-destruct in the transaction that created it takes it away (EIP-6780;
   * both chains are Cancun and later). Checked against anvil's ots_hasCode [address, "latest"]
   * where that was recorded.
   */
  hasCodeAtHead(address: string): boolean {
    const account = address.toLowerCase();
    let has = false;
    let createdIn: string | undefined;
    for (const t of this.inOrder) {
      if (t.type === 'create' && t.error === undefined && t.result?.['address'] === account) {
        has = t.result['code'] !== '0x';
        createdIn = t.transactionHash;
      } else if (t.type === 'suicide' && t.action['address'] === account && t.transactionHash === createdIn) {
        has = false;
      }
    }
    const recorded = this.codeAtHead.get(account);
    if (recorded !== undefined && recorded !== has) throw new Error(`${address}: anvil's ots_hasCode says ${recorded}, its traces ${has}`);
    return has;
  }

  knows(hash: string): boolean {
    return this.traces.has(hash);
  }

  private tracesOf(hash: string): ParityTrace[] {
    const traces = this.traces.get(hash);
    if (traces === undefined) throw new Error(`no anvil trace_block recording holds ${hash}`);
    if (traces.some((t) => t.type === 'suicide' && t.action['address'] === `0x${'00'.repeat(20)}`)) {
      // revm's EIP-6780 self-beneficiary case hides the self-destruct's facts from the traces
      throw new Error(`${hash}: a self-destruct the Parity traces do not describe`);
    }
    return traces;
  }

  /**
   * anvil's internal operations, rebuilt from its traces (storage.rs ots_internal_operations: every
   * node, the top one included; a node that self-destructs is its self-destruct), checked against
   * its recording; gives each create trace the address anvil names for it (a failed creation's
   * trace has no result to name it).
   */
  private createTargets(hash: string): Map<ParityTrace, string> {
    const traces = this.tracesOf(hash);
    const recorded = this.ops.get(hash);
    if (recorded === undefined) throw new Error(`no ots_getInternalOperations recording of ${hash}`);
    const targets = new Map<ParityTrace, string>();
    let next = 0;
    for (const t of traces) {
      if (t.type === 'suicide') continue;
      const destruct = traces.find((d) => d.type === 'suicide' && isParent(t, d));
      const op = recorded[next];
      let expected: Op | undefined;
      if (destruct !== undefined) expected = { type: 1, from: destruct.action['address']!, to: destruct.action['refundAddress']!, value: destruct.action['balance']! };
      else if (t.type === 'call' && t.action['callType'] === 'call' && t.action['value'] !== '0x0') expected = { type: 0, from: t.action['from']!, to: t.action['to']!, value: t.action['value']! };
      else if (t.type === 'create') expected = { type: t.action['creationMethod'] === 'create2' ? 3 : 2, from: t.action['from']!, to: op?.to ?? '', value: t.action['value']! };
      if (expected === undefined) continue;
      if (JSON.stringify(op) !== JSON.stringify(expected)) throw new Error(`${hash}: anvil's operation ${next} is ${JSON.stringify(op)}, its traces say ${JSON.stringify(expected)}`);
      if (t.type === 'create') targets.set(t, t.result?.['address'] ?? op!.to);
      next++;
    }
    if (next !== recorded.length) throw new Error(`${hash}: anvil lists ${recorded.length} operations, its traces ${next}`);
    for (const t of traces) if (t.type === 'create' && !targets.has(t)) targets.set(t, t.result!['address']!);
    return targets;
  }

  /** Erigon's operations: every frame below the top call, a self-destruct as its own entry. */
  internalOperations(hash: string): Op[] {
    const targets = this.createTargets(hash);
    const ops: Op[] = [];
    for (const t of this.tracesOf(hash)) {
      if (t.traceAddress.length === 0) continue;
      if (t.type === 'suicide') ops.push({ type: 1, from: t.action['address']!, to: t.action['refundAddress']!, value: t.action['balance']! });
      else if (t.type === 'create') ops.push({ type: t.action['creationMethod'] === 'create2' ? 3 : 2, from: t.action['from']!, to: targets.get(t)!, value: t.action['value']! });
      else if (t.action['callType'] === 'call' && t.action['value'] !== '0x0') ops.push({ type: 0, from: t.action['from']!, to: t.action['to']!, value: t.action['value']! });
    }
    return ops;
  }

  /** anvil's call entries, with Erigon's CREATE, CREATE2 and SELFDESTRUCT entries where their frames are. */
  traceEntries(hash: string, recorded: readonly Json[]): Json[] {
    const targets = this.createTargets(hash);
    const out: Json[] = [];
    let next = 0;
    for (const t of this.tracesOf(hash)) {
      const depth = t.traceAddress.length;
      if (t.type === 'call') {
        const entry = recorded[next++];
        if (entry?.['from'] !== t.action['from'] || entry?.['to'] !== t.action['to']) throw new Error(`${hash}: anvil's entry ${next - 1} is not trace ${JSON.stringify(t.traceAddress)}`);
        out.push(entry);
      } else if (t.type === 'create') {
        out.push({ type: t.action['creationMethod']!.toUpperCase(), depth, from: t.action['from'], to: targets.get(t), value: t.action['value'], input: t.action['init'], output: t.result?.['code'] ?? '0x' });
      } else if (t.type === 'suicide') {
        out.push({ type: 'SELFDESTRUCT', depth, from: t.action['address'], to: t.action['refundAddress'], value: t.action['balance'], input: '0x', output: '0x' });
      }
    }
    if (next !== recorded.length) throw new Error(`${hash}: anvil lists ${recorded.length} entries, its traces ${next} calls`);
    return out;
  }

  /** The block's transaction count, as anvil's ots_getBlockDetails gives it. */
  transactionCount(number: string): number {
    const count = this.txCounts.get(number);
    if (count === undefined) throw new Error(`no ots_getBlockDetails recording of block ${number}`);
    return count;
  }
}

/** anvil's answer to `request` with the documented difference applied (the answer itself when none applies). */
/** Erigon's answer where anvil answers a block past the head or an unknown hash with an error. */
function erigonError(method: string, params: unknown[], answer: { error?: { code: number } }): unknown {
  if (answer.error?.code !== -32001) return undefined;
  // a number with no canonical hash finds no block: null (otterscan_api.go, otterscan_block_details.go)
  if (method === 'ots_getBlockDetails' || method === 'ots_getBlockTransactions') return { result: null };
  if (method === 'ots_getBlockDetailsByHash') {
    const bytes = (params[0] as string).replace(/^0x/, '').match(/../g)!.map((b) => parseInt(b, 16));
    return { error: { code: -32000, message: `couldn't find block number for hash [${bytes.join(' ')}]` } };
  }
  return undefined;
}

/** Reverses each block's run of entries in `list` (blocks given by `blockOf`), the runs staying where they are. */
function newestFirstInBlocks<T>(list: T[], blockOf: (item: T) => string): T[] {
  const out: T[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j < list.length && blockOf(list[j]!) === blockOf(list[i]!)) j++;
    out.push(...list.slice(i, j).reverse());
    i = j;
  }
  return out;
}

/** anvil's answer to `request` with the documented difference applied (the answer itself when none applies). */
export function withDifferences(records: AnvilRecords, request: string, response: string): string {
  const { jsonrpc, id, method, params } = JSON.parse(request) as { jsonrpc: string; id: unknown; method: string; params: unknown[] };
  const answer = JSON.parse(response) as { result?: unknown; error?: { code: number } };
  const replaced = Array.isArray(params) ? erigonError(method, params, answer) : undefined;
  if (replaced !== undefined) return JSON.stringify({ jsonrpc, id, ...(replaced as object) });
  const result = answer.result;
  if (result === undefined || result === null) return response;
  // a hash as anvil reads it: 0x optional, any case
  const hash = Array.isArray(params) && typeof params[0] === 'string' ? `0x${params[0].replace(/^0x/, '').toLowerCase()}` : '';
  let changed: unknown = result;
  switch (method) {
    case 'erigon_getHeaderByNumber': {
      // a header, not a block
      const { uncles: _u, transactions: _t, withdrawals: _w, ...header } = result as Json;
      changed = header;
      break;
    }
    case 'ots_getBlockDetails':
    case 'ots_getBlockDetailsByHash': {
      const details = result as { block: Json };
      details.block['logsBloom'] = null;
      break;
    }
    case 'ots_getBlockTransactions': {
      const page = result as { fullblock: Json; receipts: Json[] };
      const [number, pageNumber, size] = params as number[];
      const erigon = records.erigonPage(number!, pageNumber!, size!);
      page.fullblock['logsBloom'] = null;
      page.fullblock['transactions'] = erigon.txs;
      page.fullblock['transactionCount'] = records.transactionCount(page.fullblock['number'] as string);
      page.receipts = erigon.receipts.map((receipt) => ({ ...receipt, logs: null, logsBloom: null }));
      break;
    }
    case 'ots_searchTransactionsAfter': {
      const page = result as { txs: Json[]; receipts: Json[] };
      page.txs = newestFirstInBlocks(page.txs, (tx) => tx['blockNumber'] as string);
      page.receipts = newestFirstInBlocks(page.receipts, (r) => r['blockNumber'] as string);
      break;
    }
    case 'ots_getContractCreator':
      if (!records.hasCodeAtHead(params[0] as string)) changed = null;
      break;
    case 'ots_getInternalOperations':
      changed = records.internalOperations(hash);
      break;
    case 'ots_traceTransaction':
      // an unknown transaction has no entries either way
      if (records.knows(hash)) changed = records.traceEntries(hash, result as Json[]);
      break;
  }
  return JSON.stringify({ ...answer, result: changed });
}
