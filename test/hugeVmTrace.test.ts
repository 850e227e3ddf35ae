// A vmTrace writes the whole memory at every opcode (reth's builder), so it is the struct logger's
// worst case again: written as the opcodes run, the run stopped as soon as the answer passes
// --max-response (-32003 "response too large"), or at the server's trace deadline. Measured as
// test/hugeStructLog.test.ts measures the struct logger: the real harness in a child process whose
// peak RSS (VmHWM) is polled, on a block of nine transactions that each loop some 136,000 times with
// 65 KiB of memory (some 100 GB of vmTrace a transaction). After the refusals the same process
// answers normally.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakHarness, req, TOO_LARGE } from './helpers/peakHarness.ts';
import { MEMORY_LOOPER, MEMORY_LOOPS, memoryLoopFixture } from '../bench/pathological.ts';

/** The most a vmTrace request may add to the harness's peak RSS over its idle figure. */
const ALLOWANCE_MIB = 512;

let dir: string;
let fixture: string;
let hashes: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'blocktrace-vmtrace-'));
  fixture = join(dir, 'memory-loop.json');
  writeFileSync(fixture, JSON.stringify(await memoryLoopFixture()));
  const { lines } = await peakHarness(fixture, [], [req(1, 'eth_getBlockByNumber', ['0x1', false])]);
  hashes = (JSON.parse(lines[0]!) as { result: { transactions: string[] } }).result.transactions;
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vmTrace of a heavy block', () => {
  test(`trace_replayBlockTransactions and trace_replayTransaction: -32003, the harness within ${ALLOWANCE_MIB} MiB of its idle peak, then normal answers`, async () => {
    expect(hashes.length).toBe(MEMORY_LOOPS);
    const idle = await peakHarness(fixture, ['--trace-timeout', '0'], [req(1, 'eth_blockNumber', [])]);
    expect(idle.lines).toEqual(['{"jsonrpc":"2.0","id":1,"result":"0x1"}']);
    const trace = req(3, 'trace_replayBlockTransactions', ['0x1', ['trace']]);
    const heavy = await peakHarness(fixture, ['--trace-timeout', '0'], [
      req(1, 'trace_replayBlockTransactions', ['0x1', ['vmTrace']]),
      req(2, 'trace_replayTransaction', [hashes[MEMORY_LOOPS - 1], ['trace', 'vmTrace', 'stateDiff']]),
      trace,
    ]);
    expect(heavy.lines.slice(0, 2)).toEqual([TOO_LARGE(1), TOO_LARGE(2)]);
    // the stopped runs left nothing behind: the same answer as a process that ran none
    const fresh = await peakHarness(fixture, ['--trace-timeout', '0'], [trace]);
    expect(heavy.lines[2]).toBe(fresh.lines[0]!);
    const results = (JSON.parse(heavy.lines[2]!) as { result: { trace: { action: { to: string } }[]; vmTrace: null }[] }).result;
    expect(results.map((r) => [r.trace[0]!.action.to, r.vmTrace])).toEqual(Array(MEMORY_LOOPS).fill([MEMORY_LOOPER, null]));
    console.log(`vmTrace: idle peak RSS ${idle.peakMiB.toFixed(0)} MiB, with the refused vmTraces ${heavy.peakMiB.toFixed(0)} MiB`);
    expect(idle.peakMiB).toBeGreaterThan(0);
    expect(heavy.peakMiB - idle.peakMiB).toBeLessThan(ALLOWANCE_MIB);
  }, 120_000);

  test('the server\'s trace deadline stops the run ("execution timeout"); the next request is answered', async () => {
    const { lines, peakMiB } = await peakHarness(fixture, ['--max-response', '0', '--trace-timeout', '300ms'], [
      req(1, 'trace_replayTransaction', [hashes[0], ['vmTrace']]),
      req(2, 'eth_blockNumber', []),
    ]);
    expect(lines).toEqual(['{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"execution timeout"}}', '{"jsonrpc":"2.0","id":2,"result":"0x1"}']);
    console.log(`vmTrace without a size limit, stopped at 300 ms: peak RSS ${peakMiB.toFixed(0)} MiB`);
  }, 120_000);
});
