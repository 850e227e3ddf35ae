// `blocktrace show`: a transaction's (or a block's) call tree for a person, fetched through the same
// JSON-RPC dispatcher the faces use (debug_trace* with callTracer and withLog, eth_* for status,
// gas and the code that names contracts), so it works on a fixture and in upstream mode alike.
import type { AbiDecoder } from '../abi/decoder.ts';
import type { RpcContext } from '../rpc/context.ts';
import { call, RpcCallError } from '../rpc/inProcess.ts';
import { type CallFrameJson, renderTree, type Style } from './render.ts';

export class ShowError extends Error {}

async function rpc<T>(ctx: RpcContext, method: string, params: unknown[]): Promise<T> {
  try {
    return await call<T>(ctx, method, params);
  } catch (err) {
    if (err instanceof RpcCallError) throw new ShowError(`${method}: ${err.message}`);
    throw err;
  }
}

const CALL_TRACER = { tracer: 'callTracer', tracerConfig: { withLog: true } };

interface TxInfo {
  hash: string;
  from: string;
  to: string | null;
  transactionIndex: string;
  blockNumber: string;
}
interface BlockJson {
  number: string;
  hash: string;
  transactions: TxInfo[];
  gasUsed: string;
}
interface Receipt {
  status?: string;
  gasUsed: string;
  contractAddress?: string | null;
}

function addresses(frame: CallFrameJson, out: Set<string>): Set<string> {
  if (frame.to !== undefined) out.add(frame.to.toLowerCase());
  for (const child of frame.calls ?? []) addresses(child, out);
  return out;
}

async function labelsFor(ctx: RpcContext, decoder: AbiDecoder, frames: readonly CallFrameJson[], block: string, labels: Map<string, string>): Promise<void> {
  const wanted = new Set<string>();
  for (const f of frames) addresses(f, wanted);
  for (const address of wanted) {
    if (labels.has(address)) continue;
    const code = await rpc<string>(ctx, 'eth_getCode', [address, block]);
    const name = decoder.label(code);
    if (name !== undefined) labels.set(address, name);
  }
}

function txHeader(tx: TxInfo, receipt: Receipt, style: Style): string {
  const ok = receipt.status === undefined || receipt.status === '0x1';
  const status = ok ? style.ok('success') : style.bad('reverted');
  return `tx ${Number(tx.transactionIndex)} ${tx.hash} ${status}, gas used ${BigInt(receipt.gasUsed)}`;
}

/** The block's receipts; one eth_getTransactionReceipt each from a node without eth_getBlockReceipts (Hardhat 2). */
async function blockReceipts(ctx: RpcContext, block: BlockJson): Promise<Receipt[]> {
  try {
    return await rpc<Receipt[]>(ctx, 'eth_getBlockReceipts', [block.number]);
  } catch (err) {
    if (!(err instanceof ShowError)) throw err;
  }
  const receipts: Receipt[] = [];
  for (const tx of block.transactions) receipts.push(await rpc<Receipt>(ctx, 'eth_getTransactionReceipt', [tx.hash]));
  return receipts;
}

/** The lines `show` prints for TARGET: a transaction hash, or a block number / tag. */
export async function show(ctx: RpcContext, target: string, decoder: AbiDecoder, style: Style): Promise<string[]> {
  const labels = new Map<string, string>();
  let byHash: BlockJson | null = null;
  const tx = /^0x[0-9a-fA-F]{64}$/.test(target) ? await rpc<TxInfo | null>(ctx, 'eth_getTransactionByHash', [target]) : undefined;
  if (tx === null) {
    // a 32-byte hash names a transaction or a block, as elsewhere
    byHash = await rpc<BlockJson | null>(ctx, 'eth_getBlockByHash', [target, true]);
    if (byHash === null) throw new ShowError(`no transaction or block ${target} on the chain`);
  }
  if (tx !== undefined && tx !== null) {
    const receipt = await rpc<Receipt>(ctx, 'eth_getTransactionReceipt', [target]);
    const frame = await rpc<CallFrameJson>(ctx, 'debug_traceTransaction', [target, CALL_TRACER]);
    await labelsFor(ctx, decoder, [frame], tx.blockNumber, labels);
    return [`block ${Number(tx.blockNumber)}, ${txHeader(tx, receipt, style)}`, ...renderTree(frame, { decoder, labels, style })];
  }
  const block = /^\d+$/.test(target) ? `0x${BigInt(target).toString(16)}` : target;
  if (byHash === null && !/^0x[0-9a-fA-F]+$/.test(block) && !['latest', 'earliest', 'finalized', 'safe', 'pending'].includes(block)) {
    throw new ShowError(`not a transaction hash, block hash or block: ${target}`);
  }
  const header = byHash ?? (await rpc<BlockJson | null>(ctx, 'eth_getBlockByNumber', [block, true]));
  if (header === null) throw new ShowError(`block ${target} not found`);
  const lines = [`block ${Number(header.number)} ${header.hash}: ${header.transactions.length} transactions, gas used ${BigInt(header.gasUsed)}`];
  if (header.transactions.length === 0) return lines;
  const receipts = await blockReceipts(ctx, header);
  const traces = await rpc<{ txHash: string; result: CallFrameJson }[]>(ctx, 'debug_traceBlockByNumber', [header.number, CALL_TRACER]);
  await labelsFor(ctx, decoder, traces.map((t) => t.result), header.number, labels);
  header.transactions.forEach((tx, i) => {
    lines.push('', txHeader(tx, receipts[i]!, style), ...renderTree(traces[i]!.result, { decoder, labels, style }));
  });
  return lines;
}
