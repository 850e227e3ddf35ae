// trace_filter over the whole chain, blocktrace beside anvil (issue 28: warm within 3× anvil's
// time, the first within 10× anvil's first, also on a start from the snapshot). The first request
// records every block; each timed one differs from the others only by whitespace in
// its params, so blocktrace filters the recordings again (its result cache is keyed by the params
// text) instead of reading a cached answer.
import { post } from './rpc.ts';
import { median } from './stats.ts';
import { row, type Row } from './table.ts';

const request = (i: number): string => `{"jsonrpc":"2.0","id":1,"method":"trace_filter","params":[{"fromBlock":"0x1",${' '.repeat(i)}"count":100000}]}`;

async function measure(url: string, runs: number): Promise<{ firstMs: number; medianMs: number; traces: number }> {
  const first = await post(url, request(0));
  const traces = (JSON.parse(first.text) as { result: unknown[] }).result.length;
  const times: number[] = [];
  for (let i = 1; i <= runs; i++) times.push((await post(url, request(i))).ms);
  return { firstMs: first.ms, medianMs: median(times), traces };
}

/** The first request of the bench's trace_filter, for a start of its own (bench/snapshotFirsts.ts). */
export const TRACE_FILTER_FIRST = request(0);

export async function traceFilterRows(blocktraceUrl: string, anvilUrl: string, runs: number, firstFromSnapshotMs: number): Promise<Row[]> {
  const bt = await measure(blocktraceUrl, runs);
  const anvil = await measure(anvilUrl, runs);
  return [
    row(`trace_filter, whole chain (${bt.traces} traces), first request after the load`, 'ms', bt.firstMs, anvil.firstMs, { op: '<=', value: 10, of: 'ratio' }),
    row('trace_filter, whole chain, first request after a start from the snapshot', 'ms', firstFromSnapshotMs, anvil.firstMs, { op: '<=', value: 10, of: 'ratio' }),
    row(`trace_filter, whole chain, median of ${runs} uncached`, 'ms', bt.medianMs, anvil.medianMs, { op: '<=', value: 3, of: 'ratio' }),
  ];
}
