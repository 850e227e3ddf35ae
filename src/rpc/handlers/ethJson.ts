// Blocks, transactions and receipts in go-ethereum's JSON layout (internal/ethapi/api.go):
// blocks and receipts are Go maps, so their keys come out sorted; a transaction is the
// RPCTransaction struct, in its field order with its omitempty rules.
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToBigInt } from '@ethereumjs/util';
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import type { ChainBlock, ReceiptInfo } from '../../replay/chainView.ts';

/** A Go map marshalled by encoding/json: keys sorted bytewise. */
function goMap(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields).sort()) out[key] = fields[key];
  return out;
}

const SEND_FIELDS = ['maxFeePerGas', 'maxPriorityFeePerGas'] as const;

interface AnyTx {
  readonly type: number;
  readonly nonce: bigint;
  readonly gasLimit: bigint;
  readonly value: bigint;
  readonly data: Uint8Array;
  readonly to?: { readonly bytes: Uint8Array } | undefined;
  readonly v?: bigint;
  readonly r?: bigint;
  readonly s?: bigint;
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
  readonly maxFeePerBlobGas?: bigint;
  readonly chainId?: bigint;
  readonly accessList?: readonly (readonly [Uint8Array, readonly Uint8Array[]])[];
  readonly blobVersionedHashes?: readonly string[];
  readonly authorizationList?: readonly (readonly Uint8Array[])[];
  hash(): Uint8Array;
  getSenderAddress(): { readonly bytes: Uint8Array };
}

/** go-ethereum newRPCTransaction for a mined transaction. */
export function formatTransaction(chainBlock: ChainBlock, index: number, receipt: ReceiptInfo | undefined): Record<string, unknown> {
  const { block } = chainBlock;
  const tx = block.transactions[index] as TypedTransaction as unknown as AnyTx;
  const baseFee = block.header.baseFeePerGas;
  const v = tx.v ?? 0n;
  const typed = tx.type !== 0;
  const dynamicFee = tx.maxFeePerGas !== undefined && tx.maxPriorityFeePerGas !== undefined;
  let gasPrice = tx.gasPrice ?? 0n;
  if (dynamicFee) {
    const feeCap = tx.maxFeePerGas!;
    const tip = tx.maxPriorityFeePerGas!;
    gasPrice = baseFee === undefined ? feeCap : tip + baseFee < feeCap ? tip + baseFee : feeCap;
  }
  const out: Record<string, unknown> = {
    blockHash: hexBytes(chainBlock.hash),
    blockNumber: hexQuantity(chainBlock.number),
    blockTimestamp: hexQuantity(block.header.timestamp),
    from: hexBytes(receipt?.from ?? tx.getSenderAddress().bytes),
    gas: hexQuantity(tx.gasLimit),
    gasPrice: hexQuantity(gasPrice),
  };
  if (dynamicFee) {
    for (const key of SEND_FIELDS) out[key] = hexQuantity(tx[key]!);
  }
  if (tx.maxFeePerBlobGas !== undefined) out.maxFeePerBlobGas = hexQuantity(tx.maxFeePerBlobGas);
  out.hash = hexBytes(tx.hash());
  out.input = hexBytes(tx.data);
  out.nonce = hexQuantity(tx.nonce);
  out.to = tx.to === undefined ? null : hexBytes(tx.to.bytes);
  out.transactionIndex = hexQuantity(index);
  out.value = hexQuantity(tx.value);
  out.type = hexQuantity(tx.type);
  if (typed) {
    out.accessList = (tx.accessList ?? []).map(([address, keys]) => ({
      address: hexBytes(address),
      storageKeys: keys.map(hexBytes),
    }));
    out.chainId = hexQuantity(tx.chainId ?? 0n);
  } else if (v !== 27n && v !== 28n && v >= 35n) {
    // a legacy transaction with an EIP-155 signature carries its chain id in v
    out.chainId = hexQuantity((v - 35n) / 2n);
  }
  if (tx.blobVersionedHashes !== undefined && tx.blobVersionedHashes.length > 0) {
    out.blobVersionedHashes = tx.blobVersionedHashes.map((h) => h.toLowerCase());
  }
  if (tx.authorizationList !== undefined && tx.authorizationList.length > 0) {
    out.authorizationList = tx.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: hexQuantity(bytesToBigInt(chainId!)),
      address: hexBytes(address!),
      nonce: hexQuantity(bytesToBigInt(nonce!)),
      yParity: hexQuantity(bytesToBigInt(yParity!)),
      r: hexQuantity(bytesToBigInt(r!)),
      s: hexQuantity(bytesToBigInt(s!)),
    }));
  }
  out.v = hexQuantity(v);
  out.r = hexQuantity(tx.r ?? 0n);
  out.s = hexQuantity(tx.s ?? 0n);
  if (typed) out.yParity = hexQuantity(v);
  return out;
}

/** go-ethereum RPCMarshalHeader's fields (a Go map: written with its keys sorted by goMap). */
function headerFields(chainBlock: ChainBlock): Record<string, unknown> {
  const h = chainBlock.header;
  const fields: Record<string, unknown> = {
    number: hexQuantity(h.number),
    hash: hexBytes(chainBlock.hash),
    parentHash: hexBytes(h.parentHash),
    nonce: hexBytes(h.nonce),
    mixHash: hexBytes(h.mixHash),
    sha3Uncles: hexBytes(h.uncleHash),
    logsBloom: hexBytes(h.logsBloom),
    stateRoot: hexBytes(h.stateRoot),
    miner: hexBytes(h.coinbase.bytes),
    difficulty: hexQuantity(h.difficulty),
    extraData: hexBytes(h.extraData),
    gasLimit: hexQuantity(h.gasLimit),
    gasUsed: hexQuantity(h.gasUsed),
    timestamp: hexQuantity(h.timestamp),
    transactionsRoot: hexBytes(h.transactionsTrie),
    receiptsRoot: hexBytes(h.receiptTrie),
  };
  if (h.baseFeePerGas !== undefined) fields.baseFeePerGas = hexQuantity(h.baseFeePerGas);
  if (h.withdrawalsRoot !== undefined) fields.withdrawalsRoot = hexBytes(h.withdrawalsRoot);
  if (h.blobGasUsed !== undefined) fields.blobGasUsed = hexQuantity(h.blobGasUsed);
  if (h.excessBlobGas !== undefined) fields.excessBlobGas = hexQuantity(h.excessBlobGas);
  if (h.parentBeaconBlockRoot !== undefined) fields.parentBeaconBlockRoot = hexBytes(h.parentBeaconBlockRoot);
  if (h.requestsHash !== undefined) fields.requestsHash = hexBytes(h.requestsHash);
  return fields;
}

/** go-ethereum RPCMarshalHeader (eth_getHeaderByNumber, eth_getHeaderByHash). */
export function formatHeader(chainBlock: ChainBlock): Record<string, unknown> {
  return goMap(headerFields(chainBlock));
}

/** go-ethereum RPCMarshalBlock(block, inclTx=true, fullTx): the header's fields and the body's. */
export function formatBlock(chainBlock: ChainBlock, fullTx: boolean, receipts: readonly ReceiptInfo[]): Record<string, unknown> {
  const { block } = chainBlock;
  const fields: Record<string, unknown> = {
    ...headerFields(chainBlock),
    size: hexQuantity(block.serialize().length),
    transactions: block.transactions.map((tx, i) =>
      fullTx ? formatTransaction(chainBlock, i, receipts[i]) : hexBytes(tx.hash()),
    ),
    uncles: uncleHashes(chainBlock),
  };
  const withdrawals = formatWithdrawals(chainBlock);
  if (withdrawals !== undefined) fields.withdrawals = withdrawals;
  return goMap(fields);
}

/** The block's uncles by hash. */
export function uncleHashes(chainBlock: ChainBlock): string[] {
  return chainBlock.block.uncleHeaders.map((u) => hexBytes(u.hash()));
}

/** The block's withdrawals (types.Withdrawal, gen_withdrawal_json.go); undefined before Shanghai. */
export function formatWithdrawals(chainBlock: ChainBlock): Record<string, string>[] | undefined {
  return chainBlock.block.withdrawals?.map((w) => ({
    index: hexQuantity(w.index),
    validatorIndex: hexQuantity(w.validatorIndex),
    address: hexBytes(w.address.bytes),
    amount: hexQuantity(w.amount),
  }));
}

/** go-ethereum MarshalReceipt. */
export function formatReceipt(chainBlock: ChainBlock, index: number, receipt: ReceiptInfo): Record<string, unknown> {
  const { block } = chainBlock;
  const tx = block.transactions[index] as unknown as AnyTx;
  const blockHash = hexBytes(chainBlock.hash);
  const txHash = hexBytes(tx.hash());
  const fields: Record<string, unknown> = {
    blockHash,
    blockNumber: hexQuantity(chainBlock.number),
    transactionHash: txHash,
    transactionIndex: hexQuantity(index),
    from: hexBytes(receipt.from),
    to: tx.to === undefined ? null : hexBytes(tx.to.bytes),
    gasUsed: hexQuantity(receipt.gasUsed),
    cumulativeGasUsed: hexQuantity(receipt.cumulativeGasUsed),
    contractAddress: receipt.contractAddress === undefined ? null : hexBytes(receipt.contractAddress),
    logs: receipt.logs.map((_, j) => formatLog(chainBlock, index, receipt, j)),
    logsBloom: hexBytes(receipt.logsBloom),
    type: hexQuantity(tx.type),
    effectiveGasPrice: hexQuantity(receipt.effectiveGasPrice),
  };
  // go-ethereum internal/ethapi marshalReceipt: a pre-Byzantium receipt carries its post-state root
  if (receipt.postState !== undefined && receipt.postState.length > 0) fields.root = hexBytes(receipt.postState);
  else if (receipt.status !== undefined) fields.status = hexQuantity(receipt.status);
  if (tx.type === 3) {
    fields.blobGasUsed = hexQuantity(receipt.blobGasUsed ?? 0n);
    fields.blobGasPrice = hexQuantity(receipt.blobGasPrice ?? 0n);
  }
  return goMap(fields);
}

/** go-ethereum types.Log in its field order (core/types/gen_log_json.go): the j-th log of a receipt. */
export function formatLog(chainBlock: ChainBlock, index: number, receipt: ReceiptInfo, j: number): Record<string, unknown> {
  const log = receipt.logs[j]!;
  return {
    address: hexBytes(log.address),
    topics: log.topics.map(hexBytes),
    data: hexBytes(log.data),
    blockNumber: hexQuantity(chainBlock.number),
    // a stored block knows these without decoding its transactions or making its header
    transactionHash: hexBytes(chainBlock.txHashes?.[index] ?? chainBlock.block.transactions[index]!.hash()),
    transactionIndex: hexQuantity(index),
    blockHash: hexBytes(chainBlock.hash),
    blockTimestamp: hexQuantity(chainBlock.timestamp ?? chainBlock.block.header.timestamp),
    logIndex: hexQuantity(receipt.firstLogIndex + j),
    removed: false,
  };
}
