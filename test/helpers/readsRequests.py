#!/usr/bin/env python3
"""Writes the request list (NAME BODY lines) recorded from anvil into golden/anvil-eth/<chain>/reads/.

  python3 test/helpers/readsRequests.py CHAIN_INFO.json > golden/anvil-eth/<chain>/reads.requests

CHAIN_INFO.json: {"head": n, "blocks": [{"hash", "txs": [hash…]}…], "logAddresses": […], "topics": […]}
(block hashes, transaction hashes, log emitters and topics of the chain: only what the requests name).
"""
import json, sys

info = json.load(open(sys.argv[1]))
head = info['head']
blocks = info['blocks']
hx = lambda n: hex(n)
lines = []
def req(name, method, params=None):
    body = {'jsonrpc': '2.0', 'id': 1, 'method': method}
    if params is not None:
        body['params'] = params
    lines.append(f"{method}.{name} {json.dumps(body, separators=(',', ':'))}")

a0, a1 = info['logAddresses'][0], info['logAddresses'][1]
t0, t1, t2 = info['topics'][0], info['topics'][1], info['topics'][2]
mid = blocks[head // 2]['hash']
# eth_getLogs
req('all', 'eth_getLogs', [{'fromBlock': 'earliest', 'toBlock': 'latest'}])
req('from-0x0', 'eth_getLogs', [{'fromBlock': '0x0'}])
req('empty-filter', 'eth_getLogs', [{}])
req('range', 'eth_getLogs', [{'fromBlock': '0x1', 'toBlock': hx(head // 2)}])
req('one-block', 'eth_getLogs', [{'fromBlock': hx(head // 2), 'toBlock': hx(head // 2)}])
req('address', 'eth_getLogs', [{'fromBlock': '0x0', 'address': a0}])
req('address-list', 'eth_getLogs', [{'fromBlock': '0x0', 'address': [a0, a1]}])
req('address-none', 'eth_getLogs', [{'fromBlock': '0x0', 'address': '0x' + '00' * 19 + '01'}])
req('topic0', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [t0]}])
req('topic0-or', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [[t0, t1]]}])
req('topic-null-first', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [None, None, None]}])
req('topic-empty-list', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [[], None]}])
req('topic-null-in-list', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [[t2, None]]}])
req('topics-four', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [None, None, None, None]}])
req('address-and-topic', 'eth_getLogs', [{'fromBlock': '0x0', 'address': [a0], 'topics': [t0]}])
req('block-hash', 'eth_getLogs', [{'blockHash': mid}])
req('block-hash-topic', 'eth_getLogs', [{'blockHash': mid, 'topics': [t0]}])
req('latest', 'eth_getLogs', [{'fromBlock': 'latest', 'toBlock': 'latest'}])
req('err-hash-and-range', 'eth_getLogs', [{'blockHash': mid, 'fromBlock': '0x1'}])
req('err-reversed', 'eth_getLogs', [{'fromBlock': hx(head), 'toBlock': '0x1'}])
req('err-future', 'eth_getLogs', [{'fromBlock': '0x1', 'toBlock': hx(head + 5)}])
req('err-five-topics', 'eth_getLogs', [{'fromBlock': '0x0', 'topics': [None, None, None, None, None]}])
req('err-unknown-hash', 'eth_getLogs', [{'blockHash': '0x' + '00' * 31 + '01'}])
req('err-bad-address', 'eth_getLogs', [{'address': '0x1234'}])
req('err-bad-topic', 'eth_getLogs', [{'topics': ['0x1234']}])
# receipts, counts, by index, uncles
for n, b in enumerate(blocks):
    req(hx(n), 'eth_getBlockReceipts', [hx(n)])
    req(hx(n), 'eth_getBlockTransactionCountByNumber', [hx(n)])
    req(hx(n), 'eth_getBlockTransactionCountByHash', [b['hash']])
    if b['txs']:
        last = len(b['txs']) - 1
        req(f'{hx(n)}-0', 'eth_getTransactionByBlockNumberAndIndex', [hx(n), '0x0'])
        req(f'{hx(n)}-{hx(last)}', 'eth_getTransactionByBlockHashAndIndex', [b['hash'], hx(last)])
        req(f'{hx(n)}-0', 'debug_getRawTransaction', [b['txs'][0]])
    req(hx(n), 'debug_getRawHeader', [hx(n)])
    req(hx(n), 'debug_getRawBlock', [hx(n)])
    req(hx(n), 'debug_getRawReceipts', [hx(n)])
req('by-hash', 'eth_getBlockReceipts', [mid])
req('latest', 'eth_getBlockReceipts', ['latest'])
req('earliest', 'eth_getBlockReceipts', ['earliest'])
req('future', 'eth_getBlockReceipts', [hx(head + 1)])
req('unknown-hash', 'eth_getBlockReceipts', ['0x' + '00' * 31 + '01'])
req('latest', 'eth_getBlockTransactionCountByNumber', ['latest'])
req('future', 'eth_getBlockTransactionCountByNumber', [hx(head + 1)])
req('unknown-hash', 'eth_getBlockTransactionCountByHash', ['0x' + '00' * 31 + '01'])
req('past-end', 'eth_getTransactionByBlockNumberAndIndex', [hx(head), '0xffff'])
req('future', 'eth_getTransactionByBlockNumberAndIndex', [hx(head + 1), '0x0'])
req('unknown-hash', 'eth_getTransactionByBlockHashAndIndex', ['0x' + '00' * 31 + '01', '0x0'])
req(hx(head), 'eth_getUncleCountByBlockNumber', [hx(head)])
req('mid', 'eth_getUncleCountByBlockHash', [mid])
req(f'{hx(head)}-0', 'eth_getUncleByBlockNumberAndIndex', [hx(head), '0x0'])
req('mid-0', 'eth_getUncleByBlockHashAndIndex', [mid, '0x0'])
req('latest', 'debug_getRawBlock', ['latest'])
req('unknown', 'debug_getRawTransaction', ['0x' + '00' * 31 + '01'])
# fees and node
req('head', 'eth_gasPrice')
req('head', 'eth_maxPriorityFeePerGas')
req('head', 'eth_blobBaseFee')
req('one', 'eth_feeHistory', ['0x1', 'latest', []])
req('all-rewards', 'eth_feeHistory', [hx(head + 1), 'latest', [10, 50, 90]])
req('past-genesis', 'eth_feeHistory', ['0x40', hx(head // 2), [25, 75]])
req('decimal-count', 'eth_feeHistory', ['3', hx(head), [0, 100]])
req('err-percentile-order', 'eth_feeHistory', ['0x2', 'latest', [50, 10]])
req('err-percentile-range', 'eth_feeHistory', ['0x2', 'latest', [101]])
req('err-beyond-head', 'eth_feeHistory', ['0x2', hx(head + 10), []])
req('status', 'eth_syncing')
req('status', 'net_listening')
req('status', 'net_peerCount')
print('\n'.join(lines))
