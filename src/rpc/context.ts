// What a method handler may use. The faces build one context per loaded chain (createContext);
// tests build one around a fake ChainView.
import type { ChainView } from '../replay/chainView.ts';
import { findTracer, tracerNames, type TracerEntry } from '../trace/registry.ts';
import { renderParityBlock, renderParityTx } from '../trace/render/parity.ts';
import type { BlockRecording } from '../trace/types.ts';

/** The tracer registry as the RPC layer sees it (trace/registry.ts by default). */
export interface TracerLookup {
  find(name: string): TracerEntry<unknown> | undefined;
  /** Supported names, for error messages. */
  names(): readonly string[];
}

/** Parity flat traces (trace/render/parity.ts). */
export interface ParityRenderer {
  /** trace_block: every transaction in order, then reward traces. */
  block(recording: BlockRecording): readonly unknown[];
  /** trace_transaction: one transaction's traces. */
  tx(recording: BlockRecording, txIndex: number): readonly unknown[];
}

export interface RpcContext {
  readonly chain: ChainView;
  readonly tracers: TracerLookup;
  readonly parity: ParityRenderer;
  /** Most requests one batch may hold (go-ethereum BatchRequestLimit); 0 means no limit. */
  readonly maxBatch: number;
  /** web3_clientVersion. */
  readonly clientVersion: string;
  /** Diagnostics (stderr); never reaches a client. */
  readonly log: (line: string) => void;
}

export const DEFAULT_MAX_BATCH = 100;
export const CLIENT_VERSION = 'blocktrace/v0.1.0';

export const registryTracers: TracerLookup = {
  find: findTracer,
  names: () => tracerNames().sort(),
};

export const parityRenderer: ParityRenderer = { block: renderParityBlock, tx: renderParityTx };

export function createContext(
  chain: ChainView,
  options: { readonly maxBatch?: number; readonly log?: (line: string) => void } = {},
): RpcContext {
  return {
    chain,
    tracers: registryTracers,
    parity: parityRenderer,
    maxBatch: options.maxBatch ?? DEFAULT_MAX_BATCH,
    clientVersion: CLIENT_VERSION,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}
