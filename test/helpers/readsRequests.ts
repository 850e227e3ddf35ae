// Writes the request list (NAME BODY lines) recorded from anvil into golden/anvil-eth/<chain>/reads/:
// logs with every filter form and error, receipts, counts, by-index and uncle reads, raw encodings,
// fees and node status, naming only hashes, log emitters and topics of the chain.
//
//   bun test/helpers/chainInfo.ts golden/fixtures/<chain>/fixture.json > INFO.json
//   bun test/helpers/readsRequests.ts INFO.json > golden/anvil-eth/<chain>/reads.requests
import { readFileSync } from 'node:fs';

interface ChainInfo {
  readonly head: number;
  readonly blocks: readonly { readonly hash: string; readonly txs: readonly string[] }[];
  readonly logAddresses: readonly string[];
  readonly topics: readonly string[];
}

const info = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChainInfo;
const { head, blocks } = info;
const hx = (n: number): string => `0x${n.toString(16)}`;
const lines: string[] = [];
const req = (name: string, method: string, params?: readonly unknown[]): void => {
  lines.push(`${method}.${name} ${JSON.stringify({ jsonrpc: '2.0', id: 1, method, ...(params === undefined ? {} : { params }) })}`);
};
const unknownHash = `0x${'00'.repeat(31)}01`;

const [a0, a1] = info.logAddresses;
const [t0, t1, t2] = info.topics;
const mid = blocks[Math.floor(head / 2)]!.hash;
// eth_getLogs
req('all', 'eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }]);
req('from-0x0', 'eth_getLogs', [{ fromBlock: '0x0' }]);
req('empty-filter', 'eth_getLogs', [{}]);
req('range', 'eth_getLogs', [{ fromBlock: '0x1', toBlock: hx(Math.floor(head / 2)) }]);
req('one-block', 'eth_getLogs', [{ fromBlock: hx(Math.floor(head / 2)), toBlock: hx(Math.floor(head / 2)) }]);
req('address', 'eth_getLogs', [{ fromBlock: '0x0', address: a0 }]);
req('address-list', 'eth_getLogs', [{ fromBlock: '0x0', address: [a0, a1] }]);
req('address-none', 'eth_getLogs', [{ fromBlock: '0x0', address: `0x${'00'.repeat(19)}01` }]);
req('topic0', 'eth_getLogs', [{ fromBlock: '0x0', topics: [t0] }]);
req('topic0-or', 'eth_getLogs', [{ fromBlock: '0x0', topics: [[t0, t1]] }]);
req('topic-null-first', 'eth_getLogs', [{ fromBlock: '0x0', topics: [null, null, null] }]);
req('topic-empty-list', 'eth_getLogs', [{ fromBlock: '0x0', topics: [[], null] }]);
req('topic-null-in-list', 'eth_getLogs', [{ fromBlock: '0x0', topics: [[t2, null]] }]);
req('topics-four', 'eth_getLogs', [{ fromBlock: '0x0', topics: [null, null, null, null] }]);
req('address-and-topic', 'eth_getLogs', [{ fromBlock: '0x0', address: [a0], topics: [t0] }]);
req('block-hash', 'eth_getLogs', [{ blockHash: mid }]);
req('block-hash-topic', 'eth_getLogs', [{ blockHash: mid, topics: [t0] }]);
req('latest', 'eth_getLogs', [{ fromBlock: 'latest', toBlock: 'latest' }]);
req('err-hash-and-range', 'eth_getLogs', [{ blockHash: mid, fromBlock: '0x1' }]);
req('err-reversed', 'eth_getLogs', [{ fromBlock: hx(head), toBlock: '0x1' }]);
req('err-future', 'eth_getLogs', [{ fromBlock: '0x1', toBlock: hx(head + 5) }]);
req('err-five-topics', 'eth_getLogs', [{ fromBlock: '0x0', topics: [null, null, null, null, null] }]);
req('err-unknown-hash', 'eth_getLogs', [{ blockHash: unknownHash }]);
req('err-bad-address', 'eth_getLogs', [{ address: '0x1234' }]);
req('err-bad-topic', 'eth_getLogs', [{ topics: ['0x1234'] }]);
// receipts, counts, by index, uncles
blocks.forEach((b, n) => {
  req(hx(n), 'eth_getBlockReceipts', [hx(n)]);
  req(hx(n), 'eth_getBlockTransactionCountByNumber', [hx(n)]);
  req(hx(n), 'eth_getBlockTransactionCountByHash', [b.hash]);
  if (b.txs.length > 0) {
    const last = b.txs.length - 1;
    req(`${hx(n)}-0`, 'eth_getTransactionByBlockNumberAndIndex', [hx(n), '0x0']);
    req(`${hx(n)}-${hx(last)}`, 'eth_getTransactionByBlockHashAndIndex', [b.hash, hx(last)]);
    req(`${hx(n)}-0`, 'debug_getRawTransaction', [b.txs[0]]);
  }
  req(hx(n), 'debug_getRawHeader', [hx(n)]);
  req(hx(n), 'debug_getRawBlock', [hx(n)]);
  req(hx(n), 'debug_getRawReceipts', [hx(n)]);
});
req('by-hash', 'eth_getBlockReceipts', [mid]);
req('latest', 'eth_getBlockReceipts', ['latest']);
req('earliest', 'eth_getBlockReceipts', ['earliest']);
req('future', 'eth_getBlockReceipts', [hx(head + 1)]);
req('unknown-hash', 'eth_getBlockReceipts', [unknownHash]);
req('latest', 'eth_getBlockTransactionCountByNumber', ['latest']);
req('future', 'eth_getBlockTransactionCountByNumber', [hx(head + 1)]);
req('unknown-hash', 'eth_getBlockTransactionCountByHash', [unknownHash]);
req('past-end', 'eth_getTransactionByBlockNumberAndIndex', [hx(head), '0xffff']);
req('future', 'eth_getTransactionByBlockNumberAndIndex', [hx(head + 1), '0x0']);
req('unknown-hash', 'eth_getTransactionByBlockHashAndIndex', [unknownHash, '0x0']);
req(hx(head), 'eth_getUncleCountByBlockNumber', [hx(head)]);
req('mid', 'eth_getUncleCountByBlockHash', [mid]);
req(`${hx(head)}-0`, 'eth_getUncleByBlockNumberAndIndex', [hx(head), '0x0']);
req('mid-0', 'eth_getUncleByBlockHashAndIndex', [mid, '0x0']);
req('latest', 'debug_getRawBlock', ['latest']);
req('unknown', 'debug_getRawTransaction', [unknownHash]);
// fees and node
req('head', 'eth_gasPrice');
req('head', 'eth_maxPriorityFeePerGas');
req('head', 'eth_blobBaseFee');
req('one', 'eth_feeHistory', ['0x1', 'latest', []]);
req('all-rewards', 'eth_feeHistory', [hx(head + 1), 'latest', [10, 50, 90]]);
req('past-genesis', 'eth_feeHistory', ['0x40', hx(Math.floor(head / 2)), [25, 75]]);
req('decimal-count', 'eth_feeHistory', ['3', hx(head), [0, 100]]);
req('err-percentile-order', 'eth_feeHistory', ['0x2', 'latest', [50, 10]]);
req('err-percentile-range', 'eth_feeHistory', ['0x2', 'latest', [101]]);
req('err-beyond-head', 'eth_feeHistory', ['0x2', hx(head + 10), []]);
req('status', 'eth_syncing');
req('status', 'net_listening');
req('status', 'net_peerCount');
process.stdout.write(`${lines.join('\n')}\n`);
