// The JSON-RPC request a trace asks: `debug_traceTransaction` of a hash, `debug_traceBlockByNumber`
// of a number or tag, `debug_traceBlockByHash` of a 32-byte hash; callTracer with logs unless told.
// chain.trace/traceBlock and the trace snapshots ask the same request, so a snapshot's request file
// is what a test's own call would have sent.
import type { TraceOptions } from './types/index.d.ts';

export type { TraceOptions };

export interface TraceRequest {
  readonly method: string;
  readonly params: readonly unknown[];
}

const tracerParam = (options: TraceOptions | undefined): Record<string, unknown> => {
  const tracer = options?.tracer ?? 'callTracer';
  const config = options?.tracerConfig ?? (tracer === 'callTracer' ? { withLog: true } : undefined);
  return config === undefined ? { tracer } : { tracer, tracerConfig: config };
};

const HASH = /^0x[0-9a-fA-F]{64}$/;

export const txTraceRequest = (txHash: string, options?: TraceOptions): TraceRequest => ({
  method: 'debug_traceTransaction',
  params: [txHash, tracerParam(options)],
});

export function blockTraceRequest(block: number | bigint | string, options?: TraceOptions): TraceRequest {
  const byHash = typeof block === 'string' && HASH.test(block);
  const param = typeof block === 'string' ? block : `0x${BigInt(block).toString(16)}`;
  return { method: byHash ? 'debug_traceBlockByHash' : 'debug_traceBlockByNumber', params: [param, tracerParam(options)] };
}
