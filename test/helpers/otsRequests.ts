// Writes the Otterscan request list (NAME BODY lines) recorded from anvil into
// golden/anvil-ots/<chain>/: every ots_* method and erigon_getHeaderByNumber over the whole chain,
// with the paging edges (first and last page, a page size that splits a block, page size 0 and
// 10^9), block 0, blocks beyond the head, unknown hashes, nonces beyond an account's and bad
// parameters. It names only what the fixture and anvil's own trace_block recordings of the chain
// (golden/anvil/<chain>/) hold: blocks, transactions, senders, contracts, addresses that calls touch.
//
//   bun test/helpers/otsRequests.ts golden/fixtures/<chain>/fixture.json > golden/anvil-ots/<chain>/ots.requests
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

interface FixtureTx {
  readonly hash: string;
  readonly from: string;
  readonly to: string | null;
  readonly nonce: string;
}
interface FixtureBlock {
  readonly hash: string;
  readonly block: { readonly number: string; readonly miner: string; readonly transactions: readonly FixtureTx[] };
  readonly receipts: readonly { readonly contractAddress: string | null }[];
}
interface ParityTrace {
  readonly type: string;
  readonly action: Record<string, string>;
  readonly result: Record<string, string> | null;
}

const fixturePath = process.argv[2]!;
const chain = basename(dirname(fixturePath));
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as { genesisBlock: FixtureBlock; blocks: FixtureBlock[]; contracts: Record<string, { address: string }> };
const blocks = [fixture.genesisBlock, ...fixture.blocks];
const head = blocks.length - 1;
const hx = (n: number): string => `0x${n.toString(16)}`;
const lines: string[] = [];
const req = (name: string, method: string, params: readonly unknown[]): void => {
  lines.push(`${method}.${name} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })}`);
};
const unknownHash = `0x${'00'.repeat(31)}01`;
const unknownAddress = `0x${'00'.repeat(19)}01`;

// anvil's own traces of every block: the addresses calls, creations and self-destructs name
const traceDir = join(import.meta.dir, '../../golden/anvil', chain);
const traces: ParityTrace[] = readdirSync(traceDir)
  .filter((f) => f.endsWith('.trace_block.response.json'))
  .flatMap((f) => (JSON.parse(readFileSync(join(traceDir, f), 'utf8')) as { result: ParityTrace[] }).result);

const txs = blocks.flatMap((b) => b.block.transactions);
const count = (list: readonly string[]): string[] => {
  const seen = new Map<string, number>();
  for (const a of list) seen.set(a, (seen.get(a) ?? 0) + 1);
  return [...seen].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([a]) => a);
};
const senders = count(txs.map((t) => t.from));
const contracts = Object.values(fixture.contracts).map((c) => c.address.toLowerCase());
const deployed = blocks.flatMap((b) => b.receipts.flatMap((r) => (r.contractAddress === null ? [] : [r.contractAddress])));
const created = [...new Set(traces.filter((t) => t.type === 'create' && t.result !== null).map((t) => t.result!['address']!))];
const destroyed = [...new Set(traces.filter((t) => t.type === 'suicide').flatMap((t) => [t.action['address']!, t.action['refundAddress']!]))];
const topLevel = new Set([...txs.map((t) => t.from), ...txs.flatMap((t) => (t.to === null ? [] : [t.to]))]);
const internal = count(traces.filter((t) => t.type === 'call').map((t) => t.action['to']!)).filter((a) => !topLevel.has(a));
const miner = blocks[1]!.block.miner;
const searched = [...new Set([...senders.slice(0, 3), ...contracts, ...created.slice(0, 4), ...destroyed, ...internal.slice(0, 4), miner, `0x${'00'.repeat(20)}`, unknownAddress])];

// ---- API level, headers, block details ------------------------------------------------------
req('none', 'ots_getApiLevel', []);
for (let n = 0; n <= head; n++) req(`block-${hx(n)}`, 'erigon_getHeaderByNumber', [n]);
req('latest', 'erigon_getHeaderByNumber', ['latest']);
req('earliest', 'erigon_getHeaderByNumber', ['earliest']);
req('hex', 'erigon_getHeaderByNumber', [hx(1)]);
req('beyond-head', 'erigon_getHeaderByNumber', [head + 1]);
for (let n = 0; n <= head; n++) req(`block-${hx(n)}`, 'ots_getBlockDetails', [n]);
req('latest', 'ots_getBlockDetails', ['latest']);
req('hex', 'ots_getBlockDetails', [hx(2)]);
req('beyond-head', 'ots_getBlockDetails', [head + 1]);
req('far-beyond', 'ots_getBlockDetails', [1_000_000]);
for (let n = 0; n <= head; n++) req(`block-${hx(n)}`, 'ots_getBlockDetailsByHash', [blocks[n]!.hash]);
req('unknown-hash', 'ots_getBlockDetailsByHash', [unknownHash]);
req('short-hash', 'ots_getBlockDetailsByHash', ['0x1234']);

// ---- block transactions: every block's first page, then paging edges on the busiest block ----
const busiest = blocks.reduce((best, b, n) => (b.block.transactions.length > blocks[best]!.block.transactions.length ? n : best), 0);
for (let n = 0; n <= head; n++) if (n !== busiest) req(`block-${hx(n)}.p0-s25`, 'ots_getBlockTransactions', [n, 0, 25]);
const size = blocks[busiest]!.block.transactions.length;
for (const p of new Set([0, 1, Math.ceil(size / 25) - 1, Math.ceil(size / 25)])) req(`block-${hx(busiest)}.p${p}-s25`, 'ots_getBlockTransactions', [busiest, p, 25]);
const split = Math.max(2, Math.floor(size / 3) + 1);
for (const p of [0, 2, 3]) req(`block-${hx(busiest)}.p${p}-s${split}`, 'ots_getBlockTransactions', [busiest, p, split]);
req(`block-${hx(busiest)}.p0-s0`, 'ots_getBlockTransactions', [busiest, 0, 0]);
req(`block-${hx(busiest)}.p0-s1`, 'ots_getBlockTransactions', [busiest, 0, 1]);
req(`block-${hx(busiest)}.p${size - 1}-s1`, 'ots_getBlockTransactions', [busiest, size - 1, 1]);
req(`block-${hx(busiest)}.p0-s1e9`, 'ots_getBlockTransactions', [busiest, 0, 1_000_000_000]);
req(`block-${hx(busiest)}.p1e9-s10`, 'ots_getBlockTransactions', [busiest, 1_000_000_000, 10]);
req('beyond-head', 'ots_getBlockTransactions', [head + 1, 0, 25]);
req('hex-block', 'ots_getBlockTransactions', [hx(1), 0, 25]);
req('missing-page-size', 'ots_getBlockTransactions', [1, 0]);
req('negative-page', 'ots_getBlockTransactions', [1, -1, 25]);

// ---- per transaction: internal operations, trace, error (the busiest block's first three) ----
for (const [n, b] of blocks.entries()) {
  b.block.transactions.forEach((tx, i) => {
    if (n === busiest && i >= 3) return;
    const name = `block-${hx(n)}.tx-${i}`;
    req(name, 'ots_getInternalOperations', [tx.hash]);
    req(name, 'ots_traceTransaction', [tx.hash]);
    req(name, 'ots_getTransactionError', [tx.hash]);
  });
}
for (const method of ['ots_getInternalOperations', 'ots_traceTransaction', 'ots_getTransactionError']) {
  req('unknown-hash', method, [unknownHash]);
  req('not-a-hash', method, ['0x12']);
}

// ---- code ------------------------------------------------------------------------------------
for (const a of new Set([...contracts, ...created.slice(0, 4), ...destroyed, senders[0]!, unknownAddress])) {
  req(`${a}.latest`, 'ots_hasCode', [a, 'latest']);
  req(`${a}.block-0x1`, 'ots_hasCode', [a, 1]);
}
req(`${contracts[0]}.hex`, 'ots_hasCode', [contracts[0], hx(head)]);
req(`${contracts[0]}.no-block`, 'ots_hasCode', [contracts[0]]);
req(`${contracts[0]}.beyond-head`, 'ots_hasCode', [contracts[0], head + 1]);

// ---- address history -------------------------------------------------------------------------
for (const a of searched) {
  req(`${a}.0-25`, 'ots_searchTransactionsBefore', [a, 0, 25]);
  req(`${a}.0-25`, 'ots_searchTransactionsAfter', [a, 0, 25]);
}
// Otterscan's own paging, forwards and backwards with several page sizes, on the addresses that
// some but not most transactions touch (alloy's contains_address over each trace)
const touching = new Map<string, Set<string>>();
for (const t of traces as (ParityTrace & { transactionHash?: string })[]) {
  if (t.transactionHash === undefined) continue;
  const named = t.type === 'call' ? [t.action['from']!, t.action['to']!] : t.type === 'create' ? [t.action['from']!, ...(t.result === null ? [] : [t.result['address']!])] : [t.action['address']!];
  for (const a of named) touching.set(a, (touching.get(a) ?? new Set()).add(t.transactionHash));
}
const paged = [...touching].filter(([, set]) => set.size >= 4 && set.size <= 30).sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1)).slice(0, 4).map(([a]) => a);
for (const a of paged) {
  for (const pageSize of [1, 3]) {
    for (const from of [0, 1, Math.floor(head / 2), head - 1, head, head + 1]) {
      req(`${a}.${from}-${pageSize}`, 'ots_searchTransactionsBefore', [a, from, pageSize]);
      req(`${a}.${from}-${pageSize}`, 'ots_searchTransactionsAfter', [a, from, pageSize]);
    }
  }
}
const busy = senders[0]!;
const some = paged[0]!;
for (const [a, label, from, pageSize] of [
  [busy, '0-1', 0, 1], [busy, `${head}-1`, head, 1], [busy, '1-1', 1, 1],
  [some, '0-0', 0, 0], [some, 'mid-0', Math.floor(head / 2), 0], [some, '0-1e9', 0, 1_000_000_000], [some, 'far-beyond-5', 1_000_000, 5], [some, 'beyond-0', head + 2, 0], [some, '1-0', 1, 0],
] as const) {
  if (a === busy && paged.includes(busy)) continue;
  req(`${a}.${label}`, 'ots_searchTransactionsBefore', [a, from, pageSize]);
  req(`${a}.${label}`, 'ots_searchTransactionsAfter', [a, from, pageSize]);
}
req('hex-block', 'ots_searchTransactionsBefore', [busy, hx(3), 5]);
req('hex-page-size', 'ots_searchTransactionsAfter', [busy, 3, '0x5']);
req('bad-address', 'ots_searchTransactionsBefore', ['0x1234', 0, 5]);
req('missing-page-size', 'ots_searchTransactionsAfter', [busy, 0]);

// ---- sender and nonce ------------------------------------------------------------------------
for (const s of senders.slice(0, 4)) {
  const nonces = txs.filter((t) => t.from === s).map((t) => Number(BigInt(t.nonce)));
  const [low, high] = [Math.min(...nonces), Math.max(...nonces)];
  for (const nonce of new Set([0, low, Math.floor((low + high) / 2), high, high + 1])) req(`${s}.${nonce}`, 'ots_getTransactionBySenderAndNonce', [s, nonce]);
}
req(`${busy}.hex`, 'ots_getTransactionBySenderAndNonce', [busy, hx(1)]);
req(`${busy}.huge`, 'ots_getTransactionBySenderAndNonce', [busy, '0xffffffffffffffffffff']);
req(`${unknownAddress}.0`, 'ots_getTransactionBySenderAndNonce', [unknownAddress, 0]);
req(`${busy}.negative`, 'ots_getTransactionBySenderAndNonce', [busy, -1]);

// ---- contract creators -----------------------------------------------------------------------
for (const a of new Set([...contracts, ...deployed, ...created, ...destroyed, senders[0]!, unknownAddress])) req(a, 'ots_getContractCreator', [a]);
req('bad-address', 'ots_getContractCreator', ['0x12']);

process.stdout.write(`${lines.join('\n')}\n`);
