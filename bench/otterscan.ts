// The Otterscan address search on the generated 10,000-transaction fixture (bench/generate.ts),
// blocktrace beside anvil on the same chain: ots_searchTransactionsBefore of one sender's latest
// page (Otterscan's first request on an address page), under 5 ms warm. blocktrace answers from its
// chain index (src/chainIndex/); each timed request differs from the others by whitespace in its
// params only, so blocktrace builds every answer (its result cache is keyed by the params text).
import { generatedSender } from './generate.ts';
import { post } from './rpc.ts';
import { median } from './stats.ts';
import { row, type Row } from './table.ts';

const SENDER = generatedSender(7);
const request = (i: number): string =>
  `{"jsonrpc":"2.0","id":1,"method":"ots_searchTransactionsBefore","params":["${SENDER}",${' '.repeat(i)}0,25]}`;

export interface OtsSearch {
  readonly firstMs: number;
  readonly medianMs: number;
  readonly txs: number;
}

/** Requests sent between the first and the timed ones, so that the timed ones find the server warm. */
const WARM_UP = 20;

/** The first answer; then, after WARM_UP more, the median of `runs` more. */
export async function measureOtsSearch(url: string, runs: number): Promise<OtsSearch> {
  const first = await post(url, request(0));
  const answer = JSON.parse(first.text) as { result?: { txs: unknown[] } };
  if (answer.result === undefined) throw new Error(`ots_searchTransactionsBefore: ${first.text.slice(0, 200)}`);
  for (let i = 1; i <= WARM_UP; i++) await post(url, request(i));
  const times: number[] = [];
  for (let i = WARM_UP + 1; i <= WARM_UP + runs; i++) times.push((await post(url, request(i))).ms);
  return { firstMs: first.ms, medianMs: median(times), txs: answer.result.txs.length };
}

export function otterscanRows(blocktrace: OtsSearch, anvil: OtsSearch | undefined, runs: number): Row[] {
  return [
    row(`ots_searchTransactionsBefore, a sender of the generated fixture (a page of ${blocktrace.txs}), first request`, 'ms', blocktrace.firstMs, anvil?.firstMs ?? null, null),
    row(`ots_searchTransactionsBefore, same page, warm: median of ${runs} uncached after ${WARM_UP}`, 'ms', blocktrace.medianMs, anvil?.medianMs ?? null, { op: '<', value: 5 }),
  ];
}
