// Fee methods as go-ethereum answers them on a node whose head is the fixture's last block:
// eth_gasPrice and eth_maxPriorityFeePerGas from its gas price oracle (eth/gasprice/gasprice.go
// SuggestTipCap with eth/ethconfig FullNodeGPO), eth_feeHistory (eth/gasprice/feehistory.go),
// eth_blobBaseFee and eth_baseFee (eth/api_backend.go).
import { hexQuantity } from '../../encoding/hex.ts';
import { ServerError } from '../../errors/rpcErrors.ts';
import type { ChainBlock, ChainView } from '../../replay/chainView.ts';
import type { RpcContext } from '../context.ts';
import type { BlockSelector } from '../schemas.ts';
import { resolveBlock } from './resolve.ts';

/** eth/ethconfig/config.go FullNodeGPO and gasprice.go defaults. */
const GPO = { blocks: 20, percentile: 60, sampleNumber: 3, maxPrice: 500n * 10n ** 9n, ignorePrice: 2n, maxHistory: 1024n };
/** miner/miner.go DefaultConfig.GasPrice (GWei / 1000): the oracle's start price. */
const START_PRICE = 10n ** 6n;
/** eth/gasprice/feehistory.go maxQueryLimit. */
const MAX_PERCENTILES = 100;

interface AnyFeeTx {
  readonly gasPrice?: bigint;
  readonly maxFeePerGas?: bigint;
  readonly maxPriorityFeePerGas?: bigint;
}

/** types.Transaction EffectiveGasTip. */
function effectiveTip(tx: AnyFeeTx, baseFee: bigint | undefined): bigint {
  const tipCap = tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n;
  const feeCap = tx.maxFeePerGas ?? tx.gasPrice ?? 0n;
  if (baseFee === undefined) return tipCap;
  const room = feeCap - baseFee;
  return room < tipCap ? room : tipCap;
}

/** gasprice.go getBlockValues: the lowest `limit` tips at or above the ignore price, coinbase's own skipped. */
function blockTips(chain: ChainView, block: ChainBlock | undefined): bigint[] {
  if (block === undefined) return [];
  const baseFee = block.block.header.baseFeePerGas;
  const coinbase = block.block.header.coinbase.toString();
  const receipts = chain.receipts(block);
  const sorted = block.block.transactions
    .map((tx, i) => ({ tip: effectiveTip(tx as AnyFeeTx, baseFee), i }))
    .sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0));
  const prices: bigint[] = [];
  for (const { tip, i } of sorted) {
    if (tip < GPO.ignorePrice) continue;
    const from = receipts[i]?.from;
    if (from !== undefined && '0x' + Buffer.from(from).toString('hex') !== coinbase) {
      prices.push(tip);
      if (prices.length >= GPO.sampleNumber) break;
    }
  }
  return prices;
}

/** gasprice.go SuggestTipCap on a fresh node (lastPrice = the miner's gas price), block results taken in request order. */
export function suggestTipCap(chain: ChainView): bigint {
  let number = chain.head.number;
  const pending: bigint[] = [];
  while (pending.length < GPO.blocks && number > 0n) pending.push(number--);
  const results: bigint[] = [];
  while (pending.length > 0) {
    let values = blockTips(chain, chain.blockByNumber(pending.shift()!));
    if (values.length === 0) values = [START_PRICE];
    if (values.length === 1 && results.length + 1 + pending.length < GPO.blocks * 2 && number > 0n) pending.push(number--);
    results.push(...values);
  }
  results.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const price = results.length > 0 ? results[Math.floor(((results.length - 1) * GPO.percentile) / 100)]! : START_PRICE;
  return price > GPO.maxPrice ? GPO.maxPrice : price;
}

export const ethMaxPriorityFeePerGas = (_: [], ctx: RpcContext): string => hexQuantity(suggestTipCap(ctx.chain));

/** internal/ethapi/api.go GasPrice: the tip plus the head's base fee. */
export const ethGasPrice = (_: [], ctx: RpcContext): string =>
  hexQuantity(suggestTipCap(ctx.chain) + (ctx.chain.head.block.header.baseFeePerGas ?? 0n));

/** eth/api_backend.go BlobBaseFee: the head's blob base fee, null before Cancun. */
export function ethBlobBaseFee(_: [], ctx: RpcContext): string | null {
  const header = ctx.chain.head.block.header;
  return header.excessBlobGas === undefined ? null : hexQuantity(header.getBlobGasPrice());
}

/** The base fee of the block after `block` (eip1559.CalcBaseFee); the next block's own when the chain has it. */
function nextBaseFee(chain: ChainView, block: ChainBlock): bigint | undefined {
  const next = chain.blockByNumber(block.number + 1n);
  if (next !== undefined) return next.block.header.baseFeePerGas;
  return block.block.header.baseFeePerGas === undefined ? undefined : block.block.header.calcNextBaseFee();
}

/** eth/api_backend.go BaseFee: the base fee of the block after the head, null before London. */
export function ethBaseFee(_: [], ctx: RpcContext): string | null {
  const fee = nextBaseFee(ctx.chain, ctx.chain.head);
  return fee === undefined ? null : hexQuantity(fee);
}

/** Go's %f. */
const goF = (p: number): string => p.toFixed(6);

/** feehistory.go processBlock: one block's row. */
function feeRow(chain: ChainView, block: ChainBlock, percentiles: readonly number[]) {
  const h = block.block.header;
  let blobBaseFee = 0n;
  let nextBlobBaseFee = 0n;
  if (h.excessBlobGas !== undefined) {
    blobBaseFee = h.getBlobGasPrice();
    nextBlobBaseFee = h.calcNextBlobGasPrice(h.common);
  }
  let blobGasUsedRatio = 0;
  if (h.blobGasUsed !== undefined) {
    const max = h.common.getBlobGasSchedule().maxBlobGasPerBlock;
    if (max !== 0n) blobGasUsedRatio = Number(h.blobGasUsed) / Number(max);
  }
  let reward: bigint[] | undefined;
  if (percentiles.length > 0) {
    const txs = block.block.transactions;
    const receipts = chain.receipts(block);
    if (txs.length === 0) reward = percentiles.map(() => 0n);
    else {
      // slices.SortStableFunc by reward
      const sorter = txs
        .map((tx, i) => ({ reward: effectiveTip(tx as AnyFeeTx, h.baseFeePerGas), gasUsed: receipts[i]!.gasUsed }))
        .sort((a, b) => (a.reward < b.reward ? -1 : a.reward > b.reward ? 1 : 0));
      let txIndex = 0;
      let sumGasUsed = sorter[0]!.gasUsed;
      reward = percentiles.map((p) => {
        const threshold = BigInt(Math.trunc((Number(h.gasUsed) * p) / 100));
        while (sumGasUsed < threshold && txIndex < txs.length - 1) sumGasUsed += sorter[++txIndex]!.gasUsed;
        return sorter[txIndex]!.reward;
      });
    }
  }
  return {
    baseFee: h.baseFeePerGas ?? 0n,
    nextBaseFee: nextBaseFee(chain, block) ?? 0n,
    gasUsedRatio: Number(h.gasUsed) / Number(h.gasLimit),
    blobBaseFee,
    nextBlobBaseFee,
    blobGasUsedRatio,
    reward,
  };
}

const EMPTY_HISTORY = { oldestBlock: '0x0', gasUsedRatio: null };

/** internal/ethapi/api.go FeeHistory over eth/gasprice/feehistory.go FeeHistory and resolveBlockRange. */
export function ethFeeHistory([count, newest, percentiles]: [bigint, BlockSelector, number[]], ctx: RpcContext): Record<string, unknown> {
  const { chain } = ctx;
  if (count < 1n) return EMPTY_HISTORY;
  if (percentiles.length > MAX_PERCENTILES) throw new ServerError(`invalid reward percentile: over the query limit ${MAX_PERCENTILES}`);
  let blocks = count > GPO.maxHistory ? GPO.maxHistory : count;
  percentiles.forEach((p, i) => {
    if (p < 0 || p > 100) throw new ServerError(`invalid reward percentile: ${goF(p)}`);
    const prev = percentiles[i - 1];
    if (prev !== undefined && p <= prev) throw new ServerError(`invalid reward percentile: #${i - 1}:${goF(prev)} >= #${i}:${goF(p)}`);
  });
  const head = chain.head.number;
  if ('number' in newest && newest.number > head) {
    throw new ServerError(`request beyond head block: requested ${newest.number}, head ${head}`);
  }
  // A fixture has no pending block: go-ethereum then stops at the head with one block fewer.
  if ('tag' in newest && newest.tag === 'pending') blocks--;
  const last = resolveBlock(chain, newest)?.number;
  if (last === undefined || blocks === 0n) return EMPTY_HISTORY;
  if (last + 1n < blocks) blocks = last + 1n;
  const oldest = last + 1n - blocks;
  const rows = [];
  for (let n = oldest; n <= last; n++) {
    const block = chain.blockByNumber(n);
    if (block === undefined) break; // go-ethereum's firstMissing: the rows stop at the first block it lacks
    rows.push(feeRow(chain, block, percentiles));
  }
  if (rows.length === 0) return EMPTY_HISTORY;
  const out: Record<string, unknown> = { oldestBlock: hexQuantity(oldest) };
  if (percentiles.length > 0) out.reward = rows.map((r) => r.reward!.map(hexQuantity));
  out.baseFeePerGas = [...rows.map((r) => r.baseFee), rows.at(-1)!.nextBaseFee].map(hexQuantity);
  out.gasUsedRatio = rows.map((r) => r.gasUsedRatio);
  out.baseFeePerBlobGas = [...rows.map((r) => r.blobBaseFee), rows.at(-1)!.nextBlobBaseFee].map(hexQuantity);
  out.blobGasUsedRatio = rows.map((r) => r.blobGasUsedRatio);
  return out;
}
