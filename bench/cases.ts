// The requests both servers answer in the benchmark, and their latency runs.
import { body, timedResult } from './rpc.ts';
import { median } from './stats.ts';

export const HEAVY_BLOCK = '0xa';
export const SMALL_BLOCK = '0x1';

export interface Case {
  /** e.g. "callTracer 0xa". */
  readonly label: string;
  readonly method: string;
  readonly block: string;
  readonly body: string;
}

const METHODS: readonly { name: string; method: string; params: (block: string) => unknown[] }[] = [
  { name: 'debug_traceBlockByNumber callTracer', method: 'debug_traceBlockByNumber', params: (b) => [b, { tracer: 'callTracer' }] },
  { name: 'debug_traceBlockByNumber prestateTracer', method: 'debug_traceBlockByNumber', params: (b) => [b, { tracer: 'prestateTracer' }] },
  { name: 'trace_block', method: 'trace_block', params: (b) => [b] },
  { name: 'trace_replayBlockTransactions trace', method: 'trace_replayBlockTransactions', params: (b) => [b, ['trace']] },
];

export function cases(block: string): Case[] {
  return METHODS.map((m) => ({ label: `${m.name} ${block}`, method: m.method, block, body: body(m.method, m.params(block)) }));
}

export interface Latency {
  readonly coldMs: number;
  readonly warmMs: readonly number[];
  readonly warmMedianMs: number;
  readonly responseBytes: number;
  /** sha-256 of the response, to tell which servers answered the same bytes. */
  readonly responseSha256: string;
}

const sha256 = (text: string): string => new Bun.CryptoHasher('sha256').update(text).digest('hex');

/** `runs` timed requests after a first one (which is the cold one when the server is fresh). */
export async function latency(url: string, c: Case, runs: number): Promise<Latency> {
  const first = await timedResult(url, c.body);
  const warmMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const answer = await timedResult(url, c.body);
    if (answer.text !== first.text) throw new Error(`${url} ${c.label}: a repeated request gave different bytes`);
    warmMs.push(answer.ms);
  }
  return {
    coldMs: first.ms,
    warmMs,
    warmMedianMs: median(warmMs),
    responseBytes: Buffer.byteLength(first.text),
    responseSha256: sha256(first.text),
  };
}
