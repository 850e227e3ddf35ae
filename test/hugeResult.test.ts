// A result far over --max-response costs bounded memory and answers -32003 quickly (issue 14): a
// transaction of 12000 calls with 24000 bytes of input each, whose callTracer result would be
// 578 MB, traced by the real harness in a child process whose peak RSS (VmHWM) is watched. The
// recording holds the repeated input once (replay/callInputs.ts), so what is measured is
// the rendering: without lazy renderers the same run peaks at 2.3 GB.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peakHarness, req, TOO_LARGE } from './helpers/peakHarness.ts';
import { hugeResultFixture, SINK, SPRAY_BYTES, SPRAY_CALLS } from '../bench/pathological.ts';


/**
 * Peak RSS allowed to the child, in MiB. Loading and replaying this fixture peaks at about 120 MiB
 * (eth_blockNumber alone); the writer may hold its 25 MB budget of text twice (the pieces and their
 * join), and three refused requests in a row peak at about 250 MiB. Building the result tree instead
 * needs more than the result's 578 MB of hex strings (measured: this test at 2.3 GB before the
 * renderers were lazy; 2.4 GB to answer the callTracer request with --max-response 0).
 */
const CEILING_MIB = 350;

let dir: string;
let fixture: string;
let txHash: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'blocktrace-huge-'));
  fixture = join(dir, 'huge.json');
  writeFileSync(fixture, JSON.stringify(await hugeResultFixture()));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const harness = (options: readonly string[], requests: readonly string[]) => peakHarness(fixture, ['--trace-timeout', '0', ...options], requests);

describe(`a callTracer result of ~${Math.round((SPRAY_CALLS * SPRAY_BYTES * 2) / 1e6)} MB`, () => {
  test(`callTracer, trace_block and trace_replayBlockTransactions answer -32003 and the harness stays under ${CEILING_MIB} MiB`, async () => {
    const { lines, peakMiB, ms } = await harness([], [
      req(1, 'debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]),
      req(2, 'trace_block', ['0x1']),
      req(3, 'trace_replayBlockTransactions', ['0x1', ['trace']]),
      req(4, 'eth_getBlockByNumber', ['0x1', false]),
    ]);
    expect(lines.slice(0, 3)).toEqual([TOO_LARGE(1), TOO_LARGE(2), TOO_LARGE(3)]);
    txHash = (JSON.parse(lines[3]!) as { result: { transactions: string[] } }).result.transactions[0]!;
    console.log(`huge result: peak RSS ${peakMiB.toFixed(0)} MiB, ${ms.toFixed(0)} ms for load and four answers`);
    expect(peakMiB).toBeGreaterThan(0);
    expect(peakMiB).toBeLessThan(CEILING_MIB);
  }, 30_000);

  test('under the limit the same recording still answers (onlyTopCall, one trace); a batch stops once its results add up past the limit', async () => {
    // each trace_get answer is one call of SPRAY_BYTES input: ~48 kB; the limit lets two through, the third crosses it and is kept
    const get = (id: number, i: number) => req(id, 'trace_get', [txHash, [`0x${i.toString(16)}`]]);
    const batch = `[${get(1, 1)},${get(2, 2)},${get(3, 3)},${get(4, 4)},${req(5, 'eth_blockNumber', [])}]`;
    const { lines } = await harness(['--max-response', '100000'], [
      req(6, 'debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { onlyTopCall: true } }]),
      batch,
      req(7, 'trace_transaction', [txHash]),
    ]);
    const [top] = (JSON.parse(lines[0]!) as { result: { result: { calls?: unknown; type: string } }[] }).result;
    expect(top!.result.type).toBe('CALL');
    expect(top!.result.calls).toBeUndefined();
    const answers = JSON.parse(lines[1]!) as { id: number; result?: { action: { to: string; input: string } }; error?: unknown }[];
    expect(answers.slice(0, 3).map((a) => [a.id, a.result!.action.to, a.result!.action.input.length])).toEqual([1, 2, 3].map((id) => [id, SINK, 2 + 2 * SPRAY_BYTES]));
    expect(lines[1]!).toEndWith(`,${TOO_LARGE(4)},${TOO_LARGE(5)}]`);
    expect(lines[2]).toBe(TOO_LARGE(7));
  }, 30_000);
});
