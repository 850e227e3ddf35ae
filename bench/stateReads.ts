// State reads and calls, blocktrace beside anvil: issue 15's targets (a warm eth_getStorageAt under
// 1 ms) and issue 28's (warm eth_call, eth_estimateGas, eth_getBalance and debug_traceCall within 3×
// anvil's time). Each timed request differs from the others by its id only, and these methods are
// not in blocktrace's result cache: every answer is read from the trie (or run) again. "Warm" is
// after WARM_UP requests of the method, for both servers; the early requests (the 2nd to the 6th)
// get a row of their own, without a target: a JIT-compiled server is slower on them.
import { post } from './rpc.ts';
import { median } from './stats.ts';
import { row, type Row, type Target } from './table.ts';

const TOKEN = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const HOLDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
/** transfer(0x7099…79c8, 1) */
const TRANSFER = '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000001';

const WITHIN_3X: Target = { op: '<=', value: 3, of: 'ratio' };
const CALL = { from: HOLDER, to: TOKEN, input: TRANSFER };

const CASES: readonly { label: string; method: string; params: unknown[]; target: Target }[] = [
  { label: 'eth_getBalance at the head', method: 'eth_getBalance', params: [HOLDER, 'latest'], target: WITHIN_3X },
  { label: 'eth_getStorageAt at block 0x5', method: 'eth_getStorageAt', params: [TOKEN, '0x2', '0x5'], target: { op: '<', value: 1 } },
  { label: 'eth_call, token transfer', method: 'eth_call', params: [CALL, 'latest'], target: WITHIN_3X },
  { label: 'eth_estimateGas, token transfer', method: 'eth_estimateGas', params: [CALL, 'latest'], target: WITHIN_3X },
  { label: 'debug_traceCall callTracer, token transfer', method: 'debug_traceCall', params: [CALL, 'latest', { tracer: 'callTracer' }], target: WITHIN_3X },
];

/** Requests sent before the timed ones: blocktrace's code for a method is compiled by the engine over its first requests. */
const WARM_UP = 100;
/**
 * Warm requests timed (at least): each takes a millisecond or less, and a median of 5 of them moved
 * by 40% between runs on this shared machine with no change behind it (docs/performance.md, issue 37).
 */
const WARM_RUNS = 50;

/** The median of requests 2 to runs+1 (early) and of `warmRuns` requests after WARM_UP more (warm). */
async function measure(url: string, method: string, params: unknown[], runs: number, warmRuns: number): Promise<{ early: number; warm: number }> {
  const early: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i <= WARM_UP + warmRuns; i++) {
    const answer = await post(url, JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
    if (!answer.text.includes('"result"')) throw new Error(`${method}: ${answer.text.slice(0, 200)}`);
    if (i > 0 && i <= runs) early.push(answer.ms);
    if (i > WARM_UP) warm.push(answer.ms);
  }
  return { early: median(early), warm: median(warm) };
}

export async function stateReadRows(blocktraceUrl: string, anvilUrl: string, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const warmRuns = Math.max(runs, WARM_RUNS);
  for (const c of CASES) {
    const bt = await measure(blocktraceUrl, c.method, c.params, runs, warmRuns);
    const anvil = await measure(anvilUrl, c.method, c.params, runs, warmRuns);
    rows.push(row(`${c.label}, warm: median of ${warmRuns} after ${WARM_UP}`, 'ms', bt.warm, anvil.warm, c.target));
    rows.push(row(`${c.label}, early: median of requests 2 to ${runs + 1}`, 'ms', bt.early, anvil.early, null));
  }
  return rows;
}
