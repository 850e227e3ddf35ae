// Blocks, transactions and receipts in anvil's JSON layout: the alloy rpc-types structs anvil 1.7.1
// serialises (rpc-types-eth Header, Transaction with its consensus envelope flattened, and
// rpc-types-trace otterscan.rs OtsTransactionReceipt), in their field order. The values are those
// of the go-ethereum layout (ethJson.ts); only their order and anvil's own fields differ.
import { RLP } from '@ethereumjs/rlp';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import type { ChainBlock, ChainView, ReceiptInfo } from '../../replay/chainView.ts';
import { formatHeader, formatLog, formatTransaction } from './ethJson.ts';

type Json = Record<string, unknown>;

/** `source`'s keys that are in `keys`, in that order. */
function ordered(source: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (key in source) out[key] = source[key];
  return out;
}

/** alloy rpc Header: its hash, the consensus header's fields, then totalDifficulty and size. */
const HEADER_KEYS = [
  'hash', 'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom',
  'difficulty', 'number', 'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas',
  'withdrawalsRoot', 'blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash', 'totalDifficulty', 'size',
];

const TX_TAIL = ['hash', 'blockHash', 'blockNumber', 'transactionIndex', 'from'];
/** The consensus transaction of each type (alloy-consensus TxLegacy … TxEip7702), its signature, then the rpc fields. */
const TX_KEYS: Record<number, readonly string[]> = {
  0: ['type', 'chainId', 'nonce', 'gasPrice', 'gas', 'to', 'value', 'input', 'r', 's', 'v', ...TX_TAIL, 'blockTimestamp'],
  1: ['type', 'chainId', 'nonce', 'gasPrice', 'gas', 'to', 'value', 'accessList', 'input', 'r', 's', 'yParity', 'v', ...TX_TAIL, 'blockTimestamp'],
  2: ['type', 'chainId', 'nonce', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'to', 'value', 'accessList', 'input', 'r', 's', 'yParity', 'v', ...TX_TAIL, 'gasPrice', 'blockTimestamp'],
  3: ['type', 'chainId', 'nonce', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'to', 'value', 'accessList', 'blobVersionedHashes', 'maxFeePerBlobGas', 'input', 'r', 's', 'yParity', 'v', ...TX_TAIL, 'gasPrice', 'blockTimestamp'],
  4: ['type', 'chainId', 'nonce', 'gas', 'maxFeePerGas', 'maxPriorityFeePerGas', 'to', 'value', 'accessList', 'authorizationList', 'input', 'r', 's', 'yParity', 'v', ...TX_TAIL, 'gasPrice', 'blockTimestamp'],
};

/** Total difficulty up to each block, summed once per chain as far as asked. */
const totals = new WeakMap<ChainView, bigint[]>();

function totalDifficulty(chain: ChainView, block: ChainBlock): bigint {
  let sums = totals.get(chain);
  if (sums === undefined) totals.set(chain, (sums = []));
  const target = Number(block.number - chain.genesis.number);
  for (let i = sums.length; i <= target; i++) {
    const difficulty = chain.blockByNumber(chain.genesis.number + BigInt(i))?.header.difficulty ?? 0n;
    sums.push((i === 0 ? 0n : sums[i - 1]!) + difficulty);
  }
  return sums[target]!;
}

/**
 * The block's header as anvil writes it (mem/mod.rs convert_block_with_hash). anvil's size is the
 * RLP length of the block it keeps, [header, transactions, uncles]: no withdrawals list.
 */
export function anvilHeader(chain: ChainView, block: ChainBlock): Json {
  const geth = formatHeader(block);
  geth['totalDifficulty'] = hexQuantity(totalDifficulty(chain, block));
  geth['size'] = hexQuantity(RLP.encode(block.block.raw().slice(0, 3)).length);
  return ordered(geth, HEADER_KEYS);
}


/** alloy rpc Transaction of a mined transaction. */
export function anvilTransaction(block: ChainBlock, index: number, receipt: ReceiptInfo | undefined): Json {
  const geth = formatTransaction(block, index, receipt);
  const type = Number(BigInt(geth['type'] as string));
  return ordered(geth, TX_KEYS[type] ?? TX_KEYS[2]!);
}

/** alloy rpc Log (rpc-types-eth log.rs: the consensus log flattened first). */
const LOG_KEYS = ['address', 'topics', 'data', 'blockHash', 'blockNumber', 'blockTimestamp', 'transactionHash', 'transactionIndex', 'logIndex', 'removed'];

/** alloy rpc Log: the j-th log of a receipt. */
function anvilLog(block: ChainBlock, index: number, receipt: ReceiptInfo, j: number): Json {
  return ordered(formatLog(block, index, receipt, j), LOG_KEYS);
}

/**
 * alloy OtsTransactionReceipt: OtsReceipt (status, cumulative gas, logs, bloom, type) flattened into
 * the receipt's other fields, then the block's timestamp. `logs: false` writes logs and bloom as
 * null, as Otterscan's spec and Erigon (otterscan_api.go GetBlockTransactions) do.
 */
export function anvilOtsReceipt(block: ChainBlock, index: number, receipt: ReceiptInfo, logs: boolean): Json {
  const tx = block.block.transactions[index]!;
  const header = block.block.header;
  const out: Json = {
    status: hexQuantity(receipt.status ?? 1),
    cumulativeGasUsed: hexQuantity(receipt.cumulativeGasUsed),
    logs: logs ? receipt.logs.map((_, j) => anvilLog(block, index, receipt, j)) : null,
    logsBloom: logs ? hexBytes(receipt.logsBloom) : null,
    type: hexQuantity(tx.type),
    transactionHash: hexBytes(tx.hash()),
    transactionIndex: hexQuantity(index),
    blockHash: hexBytes(block.hash),
    blockNumber: hexQuantity(block.number),
    gasUsed: hexQuantity(receipt.gasUsed),
    effectiveGasPrice: hexQuantity(receipt.effectiveGasPrice),
  };
  if (receipt.blobGasUsed !== undefined) out['blobGasUsed'] = hexQuantity(receipt.blobGasUsed);
  // anvil gives every receipt of a Cancun block the block's blob gas price
  if (header.excessBlobGas !== undefined) out['blobGasPrice'] = hexQuantity(header.getBlobGasPrice());
  out['from'] = hexBytes(receipt.from);
  out['to'] = tx.to === undefined ? null : hexBytes(tx.to.bytes);
  out['contractAddress'] = receipt.contractAddress === undefined ? null : hexBytes(receipt.contractAddress);
  out['timestamp'] = hexQuantity(header.timestamp);
  return out;
}
