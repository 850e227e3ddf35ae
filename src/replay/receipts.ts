// Receipt facts of a replayed block, kept for eth_getTransactionReceipt and log indexes.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { Bloom, type RunBlockResult } from '@ethereumjs/vm';
import type { SnapshotReceipt } from './snapshotData.ts';
import type { ReceiptInfo } from './chainView.ts';

export function receiptInfos(block: Block, result: RunBlockResult): ReceiptInfo[] {
  const baseFee = block.header.baseFeePerGas;
  const blobGasPrice = block.common.isActivatedEIP(4844) ? block.header.getBlobGasPrice() : undefined;
  let logIndex = 0;
  return result.results.map((r, i) => {
    const tx = block.transactions[i]!;
    const receipt = result.receipts[i]!;
    const firstLogIndex = logIndex;
    logIndex += receipt.logs.length;
    const status = 'status' in receipt ? (receipt.status as 0 | 1) : undefined;
    const postState = 'stateRoot' in receipt ? (receipt.stateRoot as Uint8Array) : undefined;
    const blobGasUsed = (r as { blobGasUsed?: bigint }).blobGasUsed;
    return {
      status,
      postState,
      gasUsed: r.totalGasSpent,
      cumulativeGasUsed: receipt.cumulativeBlockGasUsed,
      logsBloom: receipt.bitvector,
      logs: receipt.logs.map(([address, topics, data]) => ({ address, topics, data })),
      contractAddress: r.createdAddress?.bytes,
      effectiveGasPrice: effectiveGasPrice(tx, baseFee),
      blobGasUsed: tx.type === 3 ? blobGasUsed : undefined,
      blobGasPrice: tx.type === 3 ? blobGasPrice : undefined,
      from: tx.getSenderAddress().bytes,
      firstLogIndex,
    };
  });
}

function effectiveGasPrice(tx: Block['transactions'][number], baseFee: bigint | undefined): bigint {
  const t = tx as { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint; gasPrice?: bigint };
  if (t.maxFeePerGas !== undefined && t.maxPriorityFeePerGas !== undefined) {
    const base = baseFee ?? 0n;
    const tip = t.maxFeePerGas - base < t.maxPriorityFeePerGas ? t.maxFeePerGas - base : t.maxPriorityFeePerGas;
    return base + tip;
  }
  return t.gasPrice ?? 0n;
}

/** Receipts kept without their blooms (a snapshot's), each given the bloom of its logs again (ethereumjs's Bloom, as runTx makes it). */
export function withBlooms(receipts: readonly SnapshotReceipt[], common: Common): ReceiptInfo[] {
  return receipts.map((r) => {
    const bloom = new Bloom(undefined, common);
    for (const log of r.logs) {
      bloom.add(log.address);
      for (const topic of log.topics) bloom.add(topic);
    }
    return { ...r, logsBloom: bloom.bitvector };
  });
}
