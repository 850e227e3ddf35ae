// eth_simulateV1 (go-ethereum internal/ethapi/api.go SimulateV1, simulate.go): the request's limits,
// then the simulation on the replay core, rendered as go-ethereum's simBlockResult (the block as
// RPCMarshalBlock writes it, plus `calls`).
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import { ClientLimitExceededError, InvalidParamsError, ServerError } from '../../errors/rpcErrors.ts';
import { type ChainBlock, type ReceiptInfo, chainBlockOf } from '../../replay/chainView.ts';
import type { SimBlockResult, SimCallResult } from '../../replay/simulate/types.ts';
import { gethError } from '../../trace/render/errorStrings.ts';
import { decodeRevertReason } from '../../trace/render/revertReason.ts';
import { simulateLogs, type SimulatedLog } from '../../trace/render/simulateLogs.ts';
import { RPC_GAS_CAP } from '../callParams.ts';
import type { RpcContext } from '../context.ts';
import type { BlockNumberOrHash } from '../filterParams.ts';
import type { SimOptions } from '../simulateParams.ts';
import { headerAt } from './blockReads.ts';
import { formatBlock } from './ethJson.ts';

/** simulate.go limits. */
const MAX_BLOCKS = 256;
const MAX_CALLS_PER_BLOCK = 5000;
const MAX_CALLS = 10000;
/** errors.go errCodeVMError. */
const VM_ERROR = -32015;

export async function ethSimulateV1([options, at]: [SimOptions, BlockNumberOrHash | undefined], ctx: RpcContext) {
  if (options.blocks.length === 0) throw new InvalidParamsError('empty input');
  if (options.blocks.length > MAX_BLOCKS) throw new ClientLimitExceededError('too many blocks');
  let total = 0;
  for (const block of options.blocks) {
    if (block.calls.length > MAX_CALLS_PER_BLOCK) throw new ClientLimitExceededError(`too many calls in block: ${block.calls.length} > ${MAX_CALLS_PER_BLOCK}`);
    total += block.calls.length;
    if (total > MAX_CALLS) throw new ClientLimitExceededError(`too many calls: ${total} > ${MAX_CALLS}`);
  }
  const base = headerAt(ctx.chain, at);
  if (ctx.chain.simulate === undefined) throw new ServerError('eth_simulateV1 is not available here');
  const results = await ctx.chain.simulate(base, {
    blocks: options.blocks,
    traceTransfers: options.traceTransfers,
    validation: options.validation,
    gasCap: RPC_GAS_CAP,
  });
  return results.map((r) => renderBlock(r, options.returnFullTransactions, options.traceTransfers));
}

function renderBlock(result: SimBlockResult, fullTx: boolean, traceTransfers: boolean): Record<string, unknown> {
  const hash = result.block.hash();
  const chainBlock = chainBlockOf(result.block, hash);
  const receipts = result.senders.map((from) => ({ from }) as ReceiptInfo);
  const json = formatBlock(chainBlock, fullTx, receipts);
  let logIndex = 0;
  const calls = result.calls.map((call, i) => {
    const { logs, next } = simulateLogs(call.recording, traceTransfers, logIndex);
    logIndex = next;
    return renderCall(chainBlock, call, i, call.error === undefined ? logs : []);
  });
  // a Go map: `calls` takes its sorted place
  return Object.fromEntries(Object.entries({ ...json, calls }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function renderCall(block: ChainBlock, call: SimCallResult, index: number, logs: readonly SimulatedLog[]): Record<string, unknown> {
  const txHash = hexBytes(block.block.transactions[index]!.hash());
  const out: Record<string, unknown> = {
    returnData: hexBytes(call.returnData),
    logs: logs.map((log) => ({
      address: hexBytes(log.address),
      topics: log.topics.map(hexBytes),
      data: hexBytes(log.data),
      blockNumber: hexQuantity(block.number),
      transactionHash: txHash,
      transactionIndex: hexQuantity(index),
      blockHash: hexBytes(block.hash),
      blockTimestamp: hexQuantity(block.block.header.timestamp),
      logIndex: hexQuantity(log.index),
      removed: false,
    })),
    gasUsed: hexQuantity(call.gasUsed),
    maxUsedGas: hexQuantity(call.maxUsedGas),
    status: call.error === undefined ? '0x1' : '0x0',
  };
  if (call.error?.kind === 'reverted') {
    const reason = decodeRevertReason(call.error.returnData);
    out.error = { message: reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, code: 3, data: hexBytes(call.error.returnData) };
  } else if (call.error?.kind === 'failed') {
    const message = gethError(call.error.failure);
    out.error = { message: call.error.capped ? `${message} (gas limit was capped by the RPC server's global gas cap)` : message, code: VM_ERROR };
  }
  return out;
}
