// Wire name → { how its params are read, which handler answers }. debug_* and eth_* read params
// the way go-ethereum does (rpc/json.go parsePositionalArguments); trace_* the way anvil and reth
// do (serde tuples), since those are the clients whose answers they reproduce.
import type { RpcContext } from './context.ts';
import {
  debugTraceBlockByHash,
  debugTraceBlockByNumber,
  debugTraceTransaction,
} from './handlers/debug.ts';
import {
  ethBlockNumber,
  ethChainId,
  ethGetBlockByHash,
  ethGetBlockByNumber,
  ethGetTransactionByHash,
  ethGetTransactionReceipt,
  ethGetHeaderByHash,
  ethGetHeaderByNumber,
  ethGetRawTransactionByBlockHashAndIndex,
  ethGetRawTransactionByBlockNumberAndIndex,
  ethGetRawTransactionByHash,
  netVersion,
  web3ClientVersion,
} from './handlers/eth.ts';
import {
  ethGetBlockReceipts,
  ethGetBlockTransactionCountByHash,
  ethGetBlockTransactionCountByNumber,
  ethGetTransactionByBlockHashAndIndex,
  ethGetTransactionByBlockNumberAndIndex,
  ethGetUncleByBlockHashAndIndex,
  ethGetUncleByBlockNumberAndIndex,
  ethGetUncleCountByBlockHash,
  ethGetUncleCountByBlockNumber,
} from './handlers/blockReads.ts';
import { ethBaseFee, ethBlobBaseFee, ethFeeHistory, ethGasPrice, ethMaxPriorityFeePerGas } from './handlers/fees.ts';
import { ethGetLogs } from './handlers/logs.ts';
import { ethAccounts, ethSyncing, netListening, netPeerCount, refuseWrite, WRITE_METHODS } from './handlers/node.ts';
import { debugGetRawBlock, debugGetRawHeader, debugGetRawReceipts, debugGetRawTransaction } from './handlers/raw.ts';
import { type CallArgs, gethCallArgs } from './callParams.ts';
import { ethCall } from './handlers/call.ts';
import { blocktraceDebugStep, blocktraceDebugSteps, blocktraceDebugTransaction, debugMoveParam } from './handlers/debugger.ts';
import { ethEstimateGas } from './handlers/estimate.ts';
import { ethCreateAccessList } from './handlers/accessList.ts';
import { ethGetBalance, ethGetCode, ethGetProof, ethGetStorageAt, ethGetStorageValues, ethGetTransactionCount } from './handlers/state.ts';
import { gethStorageRequests } from './storageParams.ts';
import { ethCapabilities, ethConfig } from './handlers/chainConfig.ts';
import { ethSimulateV1 } from './handlers/simulate.ts';
import {
  ethGetFilterChanges,
  ethGetFilterLogs,
  ethNewBlockFilter,
  ethNewFilter,
  ethNewPendingTransactionFilter,
  ethUninstallFilter,
} from './handlers/filters.ts';
import { ethSubscribe, ethUnsubscribe } from './handlers/subscribe.ts';
import { gethSimOptions } from './simulateParams.ts';
import { traceBlock, traceTransaction } from './handlers/trace.ts';
import { traceFilter, traceGet, traceReplayBlockTransactions, traceReplayTransaction } from './handlers/traceReplay.ts';
import { debugTraceCall, traceCall, traceCallMany } from './handlers/traceCall.ts';
import { debugAccountRange, debugDumpBlock } from './handlers/stateDump.ts';
import { debugGetModifiedAccountsByHash, debugGetModifiedAccountsByNumber, debugStorageRangeAt } from './handlers/stateDebug.ts';
import { debugGetBadBlocks, debugIntermediateRoots, debugTraceBadBlock, debugTraceBlock } from './handlers/debugBlocks.ts';
import { gethBytes, gethInt, gethOptionalHash, gethOptionalUint64, gethUint64 } from './debugParams.ts';
import { gethBlockOverrides, gethStateOverrides, gethTraceCallConfig } from './overrideParams.ts';
import {
  anyParam,
  rawParam,
  type BlockNumberOrHash,
  gethBlockNumberOrHash,
  gethFilterCriteria,
  gethFloatList,
  gethHexOrDecimal64,
  gethHexUint,
} from './filterParams.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { type AnvilShape, anvilAddress, anvilHash, anvilNumeric, anvilUint, decodeAnvilParams } from './anvilParams.ts';
import { erigonGetHeaderByNumber, otsGetApiLevel, otsGetInternalOperations, otsGetTransactionError, otsHasCode, otsTraceTransaction } from './handlers/ots.ts';
import { otsGetBlockDetails, otsGetBlockDetailsByHash, otsGetBlockTransactions } from './handlers/otsBlocks.ts';
import {
  otsGetContractCreator,
  otsGetTransactionBySenderAndNonce,
  otsSearchTransactionsAfter,
  otsSearchTransactionsBefore,
} from './handlers/otsSearch.ts';
import {
  type BlockSelector,
  gethAddress,
  gethBlockNumber,
  gethBool,
  gethHash,
  gethTraceConfig,
  ParamDecodeError,
  type ParamCodec,
  gethString,
  gethStringList,
} from './schemas.ts';
import {
  serdeHash,
  serdeIndices,
  serdeLenientBlock,
  serdeTraceFilter,
  serdeTraceTypes,
  serdeUnexpected,
  type TraceTypeName,
} from './serdeParams.ts';

type ArgsOf<C extends readonly ParamCodec<unknown>[]> = { -readonly [K in keyof C]: C[K] extends ParamCodec<infer T> ? T : never };

export interface MethodSpec {
  /**
   * `geth`: go-ethereum positional rules and texts; `serde`: a fixed-length tuple as anvil/reth read
   * it; `anvil`: a variant of anvil's EthRequest (the methods only anvil and Erigon answer).
   */
  readonly style: 'geth' | 'serde' | 'anvil';
  /** How an `anvil` method's variant takes its params. */
  readonly shape?: AnvilShape;
  readonly params: readonly ParamCodec<unknown>[];
  readonly handler: (args: readonly unknown[], ctx: RpcContext) => unknown;
  /** Answered only with `--all-tracers` (go-ethereum's wider debug namespace); -32601 otherwise. */
  readonly optIn?: boolean;
}

function method<const C extends readonly ParamCodec<unknown>[]>(
  style: MethodSpec['style'],
  params: C,
  handler: (args: ArgsOf<C>, ctx: RpcContext) => unknown,
): MethodSpec {
  return { style, params, handler: handler as MethodSpec['handler'] };
}

/** A method of go-ethereum's wider debug namespace: answered only with --all-tracers. */
const optIn = (spec: MethodSpec): MethodSpec => ({ ...spec, optIn: true });

function anvilMethod<const C extends readonly ParamCodec<unknown>[]>(
  shape: AnvilShape,
  params: C,
  handler: (args: ArgsOf<C>, ctx: RpcContext) => unknown,
): MethodSpec {
  return { style: 'anvil', shape, params, handler: handler as MethodSpec['handler'] };
}

const sequence: AnvilShape = { kind: 'sequence' };
const tuple = (variant: string): AnvilShape => ({ kind: 'tuple', variant });
/** ots_hasCode's block: serde's default (the latest) when left out. */
const defaultLatest: ParamCodec<BlockSelector | undefined> = { ...serdeLenientBlock, required: false };

/** A block that may be left out: the latest (state reads, go-ethereum v1.17). */
const optionalBlock: ParamCodec<BlockNumberOrHash | undefined> = { ...gethBlockNumberOrHash, required: false };

/** trace_callMany's list: `[[callObject, traceTypes], …]`. */
const callManyList: ParamCodec<[CallArgs, ReadonlySet<TraceTypeName>][]> = {
  required: true,
  decode(node) {
    if (node.t !== 'array') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a sequence`);
    return node.items.map((item) => {
      if (item.t !== 'array' || item.items.length !== 2) throw new ParamDecodeError(`invalid type: ${serdeUnexpected(item)}, expected a tuple of size 2`);
      return [gethCallArgs.decode(item.items[0]!), serdeTraceTypes.decode(item.items[1]!)];
    });
  },
};

const METHODS = new Map<string, MethodSpec>([
  ['debug_traceBlockByNumber', method('geth', [gethBlockNumber, gethTraceConfig], debugTraceBlockByNumber)],
  ['debug_traceBlockByHash', method('geth', [gethHash, gethTraceConfig], debugTraceBlockByHash)],
  ['debug_traceTransaction', method('geth', [gethHash, gethTraceConfig], debugTraceTransaction)],
  ['trace_block', method('serde', [serdeLenientBlock], traceBlock)],
  ['trace_transaction', method('serde', [serdeHash], traceTransaction)],
  ['trace_replayBlockTransactions', method('serde', [serdeLenientBlock, serdeTraceTypes], traceReplayBlockTransactions)],
  ['trace_replayTransaction', method('serde', [serdeHash, serdeTraceTypes], traceReplayTransaction)],
  ['trace_filter', method('serde', [serdeTraceFilter], traceFilter)],
  ['trace_get', method('serde', [serdeHash, serdeIndices], traceGet)],
  ['trace_call', method('serde', [gethCallArgs, serdeTraceTypes, optionalBlock, gethStateOverrides, gethBlockOverrides], traceCall)],
  ['trace_callMany', method('serde', [callManyList, optionalBlock], traceCallMany)],
  ['debug_traceCall', method('geth', [gethCallArgs, gethBlockNumberOrHash, gethTraceCallConfig], debugTraceCall)],
  ['eth_chainId', method('geth', [], ethChainId)],
  ['eth_blockNumber', method('geth', [], ethBlockNumber)],
  ['eth_getBlockByNumber', method('geth', [gethBlockNumber, gethBool], ethGetBlockByNumber)],
  ['eth_getBlockByHash', method('geth', [gethHash, gethBool], ethGetBlockByHash)],
  ['eth_getTransactionByHash', method('geth', [gethHash], ethGetTransactionByHash)],
  ['eth_getTransactionReceipt', method('geth', [gethHash], ethGetTransactionReceipt)],
  ['eth_getHeaderByNumber', method('geth', [gethBlockNumber], ethGetHeaderByNumber)],
  ['eth_getHeaderByHash', method('geth', [gethHash], ethGetHeaderByHash)],
  ['eth_getRawTransactionByHash', method('geth', [gethHash], ethGetRawTransactionByHash)],
  ['eth_getRawTransactionByBlockNumberAndIndex', method('geth', [gethBlockNumber, gethHexUint], ethGetRawTransactionByBlockNumberAndIndex)],
  ['eth_getRawTransactionByBlockHashAndIndex', method('geth', [gethHash, gethHexUint], ethGetRawTransactionByBlockHashAndIndex)],
  ['net_version', method('geth', [], netVersion)],
  ['web3_clientVersion', method('geth', [], web3ClientVersion)],
  // the read-only archive surface (issue 15): logs, by-block reads, fees, node status, raw encodings
  ['eth_getLogs', method('geth', [gethFilterCriteria], ethGetLogs)],
  ['eth_newFilter', method('geth', [gethFilterCriteria], ethNewFilter)],
  ['eth_newBlockFilter', method('geth', [], ethNewBlockFilter)],
  ['eth_newPendingTransactionFilter', method('geth', [{ ...gethBool, required: false }], ethNewPendingTransactionFilter)],
  ['eth_getFilterChanges', method('geth', [gethString], ethGetFilterChanges)],
  ['eth_getFilterLogs', method('geth', [gethString], ethGetFilterLogs)],
  ['eth_uninstallFilter', method('geth', [gethString], ethUninstallFilter)],
  ['eth_subscribe', method('geth', [gethString, rawParam], ethSubscribe)],
  ['eth_unsubscribe', method('geth', [gethString], ethUnsubscribe)],
  ['eth_getBalance', method('geth', [gethAddress, optionalBlock], ethGetBalance)],
  ['eth_getTransactionCount', method('geth', [gethAddress, optionalBlock], ethGetTransactionCount)],
  ['eth_getCode', method('geth', [gethAddress, optionalBlock], ethGetCode)],
  ['eth_getStorageAt', method('geth', [gethAddress, gethString, optionalBlock], ethGetStorageAt)],
  ['eth_getStorageValues', method('geth', [gethStorageRequests, optionalBlock], ethGetStorageValues)],
  ['eth_call', method('geth', [gethCallArgs, optionalBlock, gethStateOverrides, gethBlockOverrides], ethCall)],
  ['eth_estimateGas', method('geth', [gethCallArgs, optionalBlock, gethStateOverrides, gethBlockOverrides], ethEstimateGas)],
  ['eth_simulateV1', method('geth', [gethSimOptions, optionalBlock], ethSimulateV1)],
  ['eth_createAccessList', method('geth', [gethCallArgs, optionalBlock, gethStateOverrides], ethCreateAccessList)],
  ['eth_getProof', method('geth', [gethAddress, gethStringList, optionalBlock], ethGetProof)],
  ['eth_getBlockReceipts', method('geth', [gethBlockNumberOrHash], ethGetBlockReceipts)],
  ['eth_getBlockTransactionCountByNumber', method('geth', [gethBlockNumber], ethGetBlockTransactionCountByNumber)],
  ['eth_getBlockTransactionCountByHash', method('geth', [gethHash], ethGetBlockTransactionCountByHash)],
  ['eth_getTransactionByBlockNumberAndIndex', method('geth', [gethBlockNumber, gethHexUint], ethGetTransactionByBlockNumberAndIndex)],
  ['eth_getTransactionByBlockHashAndIndex', method('geth', [gethHash, gethHexUint], ethGetTransactionByBlockHashAndIndex)],
  ['eth_getUncleCountByBlockNumber', method('geth', [gethBlockNumber], ethGetUncleCountByBlockNumber)],
  ['eth_getUncleCountByBlockHash', method('geth', [gethHash], ethGetUncleCountByBlockHash)],
  ['eth_getUncleByBlockNumberAndIndex', method('geth', [gethBlockNumber, gethHexUint], ethGetUncleByBlockNumberAndIndex)],
  ['eth_getUncleByBlockHashAndIndex', method('geth', [gethHash, gethHexUint], ethGetUncleByBlockHashAndIndex)],
  ['eth_gasPrice', method('geth', [], ethGasPrice)],
  ['eth_maxPriorityFeePerGas', method('geth', [], ethMaxPriorityFeePerGas)],
  ['eth_feeHistory', method('geth', [gethHexOrDecimal64, gethBlockNumber, gethFloatList], ethFeeHistory)],
  ['eth_blobBaseFee', method('geth', [], ethBlobBaseFee)],
  ['eth_baseFee', method('geth', [], ethBaseFee)],
  ['eth_syncing', method('geth', [], ethSyncing)],
  ['eth_config', method('geth', [], ethConfig)],
  ['eth_capabilities', method('geth', [], ethCapabilities)],
  ['eth_accounts', method('geth', [], ethAccounts)],
  ['net_listening', method('geth', [], netListening)],
  ['net_peerCount', method('geth', [], netPeerCount)],
  ['debug_getRawHeader', method('geth', [gethBlockNumberOrHash], debugGetRawHeader)],
  ['debug_getRawBlock', method('geth', [gethBlockNumberOrHash], debugGetRawBlock)],
  ['debug_getRawReceipts', method('geth', [gethBlockNumberOrHash], debugGetRawReceipts)],
  ['debug_getRawTransaction', method('geth', [gethHash], debugGetRawTransaction)],
  // the Otterscan API (ots_* at API level 8, and the erigon_getHeaderByNumber it probes), read as anvil reads it
  ['ots_getApiLevel', anvilMethod({ kind: 'empty' }, [], otsGetApiLevel)],
  ['erigon_getHeaderByNumber', anvilMethod({ kind: 'array' }, [serdeLenientBlock], erigonGetHeaderByNumber)],
  ['ots_hasCode', anvilMethod(tuple('OtsHasCode'), [anvilAddress, defaultLatest], otsHasCode)],
  ['ots_getInternalOperations', anvilMethod(sequence, [anvilHash], otsGetInternalOperations)],
  ['ots_traceTransaction', anvilMethod(sequence, [anvilHash], otsTraceTransaction)],
  ['ots_getTransactionError', anvilMethod(sequence, [anvilHash], otsGetTransactionError)],
  ['ots_getBlockDetails', anvilMethod({ kind: 'array' }, [serdeLenientBlock], otsGetBlockDetails)],
  ['ots_getBlockDetailsByHash', anvilMethod(sequence, [anvilHash], otsGetBlockDetailsByHash)],
  ['ots_getBlockTransactions', anvilMethod(tuple('OtsGetBlockTransactions'), [anvilUint('u64'), anvilUint('usize'), anvilUint('usize')], otsGetBlockTransactions)],
  ['ots_searchTransactionsBefore', anvilMethod(tuple('OtsSearchTransactionsBefore'), [anvilAddress, anvilUint('u64'), anvilUint('usize')], otsSearchTransactionsBefore)],
  ['ots_searchTransactionsAfter', anvilMethod(tuple('OtsSearchTransactionsAfter'), [anvilAddress, anvilUint('u64'), anvilUint('usize')], otsSearchTransactionsAfter)],
  ['ots_getTransactionBySenderAndNonce', anvilMethod(tuple('OtsGetTransactionBySenderAndNonce'), [anvilAddress, anvilNumeric], otsGetTransactionBySenderAndNonce)],
  ['ots_getContractCreator', anvilMethod(sequence, [anvilAddress], otsGetContractCreator)],
  // the source-level debugger's own (docs/debugger.md), the viewer's Debug view reads them
  ['blocktrace_debugTransaction', method('geth', [gethHash], blocktraceDebugTransaction)],
  ['blocktrace_debugSteps', method('geth', [gethHash, gethUint64, gethUint64], blocktraceDebugSteps)],
  ['blocktrace_debugStep', method('geth', [gethHash, gethUint64, debugMoveParam], blocktraceDebugStep)],
  ...WRITE_METHODS.map((name) => [name, method('geth', [anyParam, anyParam, anyParam, anyParam], refuseWrite(name))] as const),
  // --all-tracers: go-ethereum's state debug methods (eth/api_debug.go) and block tracing beyond the chain's blocks (eth/tracers/api.go)
  ['debug_storageRangeAt', optIn(method('geth', [gethBlockNumberOrHash, gethInt, gethAddress, gethBytes, gethInt], debugStorageRangeAt))],
  ['debug_accountRange', optIn(method('geth', [gethBlockNumberOrHash, gethBytes, gethInt, gethBool, gethBool, gethBool], debugAccountRange))],
  ['debug_dumpBlock', optIn(method('geth', [gethBlockNumber], debugDumpBlock))],
  ['debug_intermediateRoots', optIn(method('geth', [gethHash, gethTraceConfig], debugIntermediateRoots))],
  ['debug_getModifiedAccountsByNumber', optIn(method('geth', [gethUint64, gethOptionalUint64], debugGetModifiedAccountsByNumber))],
  ['debug_getModifiedAccountsByHash', optIn(method('geth', [gethHash, gethOptionalHash], debugGetModifiedAccountsByHash))],
  ['debug_traceBlock', optIn(method('geth', [gethBytes, gethTraceConfig], debugTraceBlock))],
  ['debug_getBadBlocks', optIn(method('geth', [], debugGetBadBlocks))],
  ['debug_traceBadBlock', optIn(method('geth', [gethHash, gethTraceConfig], debugTraceBadBlock))],
]);

/** Every method answered here (the opt-in ones too when `all`), in table order. */
export function methodNames(all = false): string[] {
  return [...METHODS.entries()].filter(([, spec]) => all || spec.optIn !== true).map(([name]) => name);
}

/** The methods answered only with --all-tracers, in table order. */
export function optInMethodNames(): string[] {
  return [...METHODS.entries()].filter(([, spec]) => spec.optIn === true).map(([name]) => name);
}

/** The method of that wire name; an opt-in one only when `all` (--all-tracers). */
export function findMethod(name: string, all = false): MethodSpec | undefined {
  const spec = METHODS.get(name);
  return spec === undefined || (spec.optIn === true && !all) ? undefined : spec;
}

/** Decodes `params`; throws ParamDecodeError with the reference client's text. */
export function decodeParams(spec: MethodSpec, params: JsonNode | undefined): unknown[] {
  if (spec.style === 'anvil') return decodeAnvilParams(spec.shape!, spec.params, params);
  return spec.style === 'geth' ? decodeGethParams(spec.params, params) : decodeSerdeTuple(spec.params, params);
}

function decodeGethParams(codecs: readonly ParamCodec<unknown>[], params: JsonNode | undefined): unknown[] {
  const args: unknown[] = [];
  if (params !== undefined && params.t !== 'null') {
    if (params.t !== 'array') throw new ParamDecodeError('non-array args');
    params.items.forEach((item, i) => {
      const codec = codecs[i];
      if (codec === undefined) throw new ParamDecodeError(`too many arguments, want at most ${codecs.length}`);
      try {
        args.push(codec.decode(item));
      } catch (err) {
        if (err instanceof ParamDecodeError) throw new ParamDecodeError(`invalid argument ${i}: ${err.message}`);
        throw err;
      }
    });
  }
  for (let i = args.length; i < codecs.length; i++) {
    if (codecs[i]!.required) throw new ParamDecodeError(`missing value for required argument ${i}`);
    args.push(undefined);
  }
  return args;
}

function decodeSerdeTuple(codecs: readonly ParamCodec<unknown>[], params: JsonNode | undefined): unknown[] {
  const expected = `an array of length ${codecs.length}`;
  if (params === undefined || params.t !== 'array') {
    const unexpected = params === undefined ? 'null' : serdeUnexpected(params);
    throw new ParamDecodeError(`invalid type: ${unexpected}, expected ${expected}`);
  }
  const args = codecs.map((codec, i) => {
    const item = params.items[i];
    if (item === undefined) {
      // an optional trailing parameter (jsonrpsee Option<T>) may be left out
      if (!codec.required) return undefined;
      throw new ParamDecodeError(`invalid length ${i}, expected ${expected}`);
    }
    return codec.decode(item);
  });
  if (params.items.length > codecs.length) {
    throw new ParamDecodeError(`invalid length ${params.items.length}, expected fewer elements in array`);
  }
  return args;
}
