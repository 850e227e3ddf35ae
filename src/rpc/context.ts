// What a method handler may use. The faces build one context per loaded chain (createContext);
// tests build one around a fake ChainView.
import type { Build } from '../debugger/builds.ts';
import { DebugSessions } from '../debugger/sessions.ts';
import type { RenderedJson } from '../encoding/boundedJson.ts';
import type { LazyArray } from '../encoding/lazyJson.ts';
import type { ChainView } from '../replay/chainView.ts';
import { defaultTracer, findTracer, type StructLogConfig, tracerNames, type TracerEntry } from '../trace/registry.ts';
import { renderParityBlock, renderParityTx } from '../trace/render/parity.ts';
import { renderTraceResults, type TraceTypes } from '../trace/render/stateDiff.ts';
import type { BlockRecording, TxRecording } from '../trace/types.ts';
import { ResultCache } from './resultCache.ts';
import { FilterRegistry } from './filters/registry.ts';
import type { RpcSession } from './subscriptions.ts';
import { VERSION } from '../version.ts';

/** The tracer registry as the RPC layer sees it (trace/registry.ts by default). */
export interface TracerLookup {
  find(name: string): TracerEntry<unknown> | undefined;
  /** Supported names, for error messages. */
  names(): readonly string[];
  /** The tracer of a request that names none (go-ethereum's struct logger), if it is on. */
  unnamed(): TracerEntry<StructLogConfig> | undefined;
}

/** A list of traces: rendered as it is written or iterated, or (a test's renderer) plain. */
export type TraceList = LazyArray<unknown> | readonly unknown[];

/** Parity flat traces (trace/render/parity.ts), rendered as they are written or iterated. */
export interface ParityRenderer {
  /** trace_block: every transaction in order, then reward traces. */
  block(recording: BlockRecording): TraceList;
  /** trace_transaction: one transaction's traces. */
  tx(recording: BlockRecording, txIndex: number): TraceList;
  /** trace_replay* and trace_call: output, stateDiff, trace and vmTrace (rendered as it ran) of one transaction (alloy TraceResults). */
  results(tx: TxRecording, types: TraceTypes, vmTrace?: RenderedJson): Record<string, unknown>;
}

export interface RpcContext {
  readonly chain: ChainView;
  readonly tracers: TracerLookup;
  /**
   * `--all-tracers`: every tracer and debug_* method go-ethereum has (struct logger, 4byte, …);
   * off by default, where the spec's refusals hold.
   */
  readonly allTracers: boolean;
  readonly parity: ParityRenderer;
  /** Most requests one batch may hold (go-ethereum BatchRequestLimit); 0 means no limit. */
  readonly maxBatch: number;
  /**
   * Largest `result` in bytes, and the most a batch's results may add up to before the rest of it
   * is refused (go-ethereum BatchResponseMaxSize); 0 means no limit.
   */
  readonly maxResponse: number;
  /** Deadline of a trace when the request gives none, in ms; 0 means none. The faces pass DEFAULT_TRACE_TIMEOUT_MS. */
  readonly traceTimeoutMs: number;
  /** web3_clientVersion. */
  readonly clientVersion: string;
  /** Diagnostics (stderr); never reaches a client. */
  readonly log: (line: string) => void;
  /**
   * A refused tracer or method that --all-tracers would allow: named on stderr once per name, so an
   * operator learns of the flag while the JSON-RPC refusal keeps the spec's bytes.
   */
  readonly optInRefused: (what: string) => void;
  /** Rendered trace results of an immutable chain (unset where the chain can change: upstream mode). */
  readonly results?: ResultCache | undefined;
  /** Upstream mode: the calls it takes go to the upstream node unchanged. Unset for a fixture. */
  readonly forward?: Forwarder | undefined;
  /** The filters clients installed (eth_newFilter …), capped. */
  readonly filters: FilterRegistry;
  /** The connection of the request when it can carry notifications (WebSocket); unset over HTTP. */
  readonly session?: RpcSession | undefined;
  /** The source-level debugger's transactions (blocktrace_debug*), with the builds of --abi. */
  readonly debugger?: DebugSessions | undefined;
}

/** Passes calls through to another node (upstream/forward.ts). */
export interface Forwarder {
  /** Whether a call of `method` is the other node's to answer. */
  takes(method: string): boolean;
  /** Sends one request message as it came; resolves to the node's answer text as it is. */
  send(message: string, method: string): Promise<string>;
}

export const DEFAULT_MAX_BATCH = 100;
/** go-ethereum node.DefaultConfig BatchResponseMaxSize: 25 MB. */
export const DEFAULT_MAX_RESPONSE = 25 * 1000 * 1000;
/** go-ethereum eth/tracers/api.go defaultTraceTimeout: 5 s (the CLI's default; createContext's is none). */
export const DEFAULT_TRACE_TIMEOUT_MS = 5000;
export const CLIENT_VERSION = `blocktrace/v${VERSION}`;
/** Rendered trace results kept per loaded chain. */
export const DEFAULT_RESULT_CACHE_BYTES = 256 * 1024 * 1024;

export const registryTracers: TracerLookup = {
  find: (name) => findTracer(name),
  names: () => tracerNames().sort(),
  unnamed: () => defaultTracer(),
};

/** The registry with its opt-in tracers (--all-tracers). */
export const allRegistryTracers: TracerLookup = {
  find: (name) => findTracer(name, true),
  names: () => tracerNames(true).sort(),
  unnamed: () => defaultTracer(true),
};

export const parityRenderer: ParityRenderer = {
  block: renderParityBlock,
  tx: renderParityTx,
  results: (tx, types, vmTrace) => ({ ...renderTraceResults(tx, types, vmTrace) }),
};

export function createContext(
  chain: ChainView,
  options: {
    readonly maxBatch?: number;
    readonly maxResponse?: number;
    readonly traceTimeoutMs?: number;
    readonly log?: (line: string) => void;
    readonly forward?: Forwarder | undefined;
    /** Keep rendered trace results (default: yes, unless forwarding to an upstream). */
    readonly cacheResults?: boolean;
    /** --all-tracers: every tracer and debug_* method of go-ethereum. */
    readonly allTracers?: boolean | undefined;
    /** The compiler outputs of --abi, for the debugger's source maps (read when first needed). */
    readonly debugBuilds?: () => readonly Build[];
  } = {},
): RpcContext {
  const allTracers = options.allTracers === true;
  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const named = new Set<string>();
  return {
    chain,
    tracers: allTracers ? allRegistryTracers : registryTracers,
    allTracers,
    parity: parityRenderer,
    maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
    maxResponse: options.maxResponse ?? DEFAULT_MAX_RESPONSE,
    traceTimeoutMs: options.traceTimeoutMs ?? 0,
    clientVersion: CLIENT_VERSION,
    log,
    optInRefused: (what) => {
      if (named.has(what)) return;
      named.add(what);
      log(`blocktrace: refused ${what}: go-ethereum has it; start blocktrace with --all-tracers to answer it`);
    },
    forward: options.forward,
    filters: new FilterRegistry(),
    debugger: new DebugSessions(chain, options.debugBuilds ?? (() => [])),
    // A fixture never changes; an upstream chain grows, so its answers are not kept.
    results: options.forward === undefined && options.cacheResults !== false ? new ResultCache(DEFAULT_RESULT_CACHE_BYTES) : undefined,
  };
}
