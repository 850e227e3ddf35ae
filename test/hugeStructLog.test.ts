// A struct log is the largest answer a node gives: it is written as the opcodes run, and the run
// stops as soon as the answer passes --max-response (go-ethereum's -32003 "response too large").
// Measured like test/hugeResult.test.ts: the real harness in a child process whose peak RSS (VmHWM)
// is polled, on a block of nine transactions that each loop some 136,000 times with 65 KiB of memory
// (with memory, some 100 GB a transaction; without, some 60 MB). After the refusals the same process
// answers normally, and a deadline stops such a run too.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakHarness, req, TOO_LARGE } from './helpers/peakHarness.ts';
import { MEMORY_LOOPER, MEMORY_LOOPS, memoryLoopFixture } from '../bench/pathological.ts';


/** The most a struct log request may add to the harness's peak RSS over its idle figure. */
const ALLOWANCE_MIB = 512;

let dir: string;
let fixture: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'blocktrace-structlog-'));
  fixture = join(dir, 'memory-loop.json');
  writeFileSync(fixture, JSON.stringify(await memoryLoopFixture()));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const harness = (options: readonly string[], requests: readonly string[]) => peakHarness(fixture, ['--all-tracers', ...options], requests);

describe('struct logs of a heavy block', () => {
  test(`with and without memory: -32003, the harness within ${ALLOWANCE_MIB} MiB of its idle peak, then normal answers`, async () => {
    const idle = await harness(['--trace-timeout', '0'], [req(1, 'eth_blockNumber', [])]);
    expect(idle.lines).toEqual(['{"jsonrpc":"2.0","id":1,"result":"0x1"}']);
    const heavy = await harness(['--trace-timeout', '0'], [
      req(1, 'debug_traceBlockByNumber', ['0x1', { enableMemory: true }]),
      req(2, 'debug_traceBlockByNumber', ['0x1', {}]),
      req(3, 'debug_traceBlockByNumber', ['0x1', { enableMemory: true, enableReturnData: true, disableStorage: true }]),
      req(4, 'debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]),
      req(5, 'debug_traceBlockByNumber', ['0x1', { disableStack: true, limit: 2000 }]),
    ]);
    expect(heavy.lines.slice(0, 3)).toEqual([TOO_LARGE(1), TOO_LARGE(2), TOO_LARGE(3)]);
    // the stopped runs left nothing behind: the same answer as a process that ran none
    const fresh = await harness(['--trace-timeout', '0'], [req(4, 'debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }])]);
    expect(heavy.lines[3]).toBe(fresh.lines[0]!);
    const calls = (JSON.parse(heavy.lines[3]!) as { result: { result: { to: string; gasUsed: string } }[] }).result;
    expect(calls.map((c) => c.result.to)).toEqual(Array(MEMORY_LOOPS).fill(MEMORY_LOOPER));
    const limited = (JSON.parse(heavy.lines[4]!) as { result: { result: { gas: number; structLogs: { op: string }[] } }[] }).result;
    expect(limited.length).toBe(MEMORY_LOOPS);
    for (const { result } of limited) {
      expect(result.gas).toBe(Number(calls[0]!.result.gasUsed));
      expect(result.structLogs.slice(0, 4).map((s) => s.op)).toEqual(['PUSH1', 'PUSH3', 'MSTORE', 'JUMPDEST']);
    }
    console.log(`struct log: idle peak RSS ${idle.peakMiB.toFixed(0)} MiB, with the refused struct logs ${heavy.peakMiB.toFixed(0)} MiB`);
    expect(idle.peakMiB).toBeGreaterThan(0);
    expect(heavy.peakMiB - idle.peakMiB).toBeLessThan(ALLOWANCE_MIB);
  }, 120_000);

  test('a deadline stops the run ("execution timeout"); the next request is answered', async () => {
    const { lines } = await harness(['--max-response', '0'], [
      req(1, 'debug_traceBlockByNumber', ['0x1', { enableMemory: true, timeout: '300ms' }]),
      req(2, 'debug_traceTransaction', ['0x0000000000000000000000000000000000000000000000000000000000000001', {}]),
      req(3, 'eth_blockNumber', []),
    ]);
    expect(lines).toEqual([
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"execution timeout"}}',
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"transaction not found"}}',
      '{"jsonrpc":"2.0","id":3,"result":"0x1"}',
    ]);
  }, 120_000);
});
