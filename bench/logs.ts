// eth_getLogs over the whole chain (issue 15: under 50 ms), blocktrace beside anvil. Each timed
// request differs from the others only by whitespace in its params, so blocktrace computes every
// answer (its result cache is keyed by the params text) instead of reading a cached one.
import { post } from './rpc.ts';
import { median } from './stats.ts';
import { row, type Row } from './table.ts';

const request = (i: number): string =>
  `{"jsonrpc":"2.0","id":1,"method":"eth_getLogs","params":[{"fromBlock":"earliest",${' '.repeat(i)}"toBlock":"latest"}]}`;

async function measure(url: string, runs: number): Promise<{ firstMs: number; medianMs: number; logs: number }> {
  const first = await post(url, request(0));
  const logs = (JSON.parse(first.text) as { result: unknown[] }).result.length;
  const times: number[] = [];
  for (let i = 1; i <= runs; i++) times.push((await post(url, request(i))).ms);
  return { firstMs: first.ms, medianMs: median(times), logs };
}

export async function logRows(blocktraceUrl: string, anvilUrl: string, runs: number): Promise<Row[]> {
  const bt = await measure(blocktraceUrl, runs);
  const anvil = await measure(anvilUrl, runs);
  return [
    row(`eth_getLogs, whole chain (${bt.logs} logs), first request`, 'ms', bt.firstMs, anvil.firstMs),
    row(`eth_getLogs, whole chain, median of ${runs} uncached`, 'ms', bt.medianMs, anvil.medianMs, { op: '<', value: 50 }),
  ];
}
