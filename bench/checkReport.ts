// The check report of 1,000 differences (issue 34): a recording of the heavy block's trace_block and
// callTracer answers with 1,000 values changed, checked as `blocktrace check` does. Two figures: the
// in-process time from our answers to the printed text report (compare, place, decode with the
// fixture's ABIs, render), and the whole command as a process (`check … --abi`, fixture load
// included, from its snapshot). Prints one JSON line on stdout.
//
//   bun bench/checkReport.ts FIXTURE BLOCK ABI_DIR
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readArtifacts } from '../src/abi/artifacts.ts';
import { AbiDecoder } from '../src/abi/decoder.ts';
import { readGolden } from '../src/golden/layouts.ts';
import { textReport } from '../src/golden/reporters/text.ts';
import { checkAll } from '../src/golden/run.ts';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';

export interface CheckReportBench {
  readonly differences: number;
  readonly cases: number;
  /** Our answers compared with the recordings, placed, decoded and rendered: median of 5. */
  readonly reportMs: number;
  /** `blocktrace check FIXTURE GOLDEN --abi DIR` as a process, start to exit (from the snapshot). */
  readonly commandMs: number;
  readonly reportBytes: number;
}

const ROOT = resolve(import.meta.dir, '..');
const WANTED = 1000;

/** Changes the value of every `"gasUsed":"0x…"` (and then `"gas"`) until `n` are changed. */
function changed(text: string, budget: { left: number }): string {
  return text.replace(/"(gasUsed|gas)":"0x([0-9a-f]+)"/g, (whole, key: string, hex: string) => {
    if (budget.left <= 0) return whole;
    budget.left--;
    return `"${key}":"0x${(BigInt(`0x${hex}`) + 1n).toString(16)}"`;
  });
}

export async function benchCheckReport(fixture: string, block: string, abiDir: string): Promise<CheckReportBench> {
  const chain = await loadChain(fixture);
  const ctx = createContext(chain, { log: () => {}, traceTimeoutMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-check-'));
  try {
    const requests = [
      { name: 'trace_block', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trace_block', params: [block] }) },
      { name: 'callTracer', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: [block, { tracer: 'callTracer', tracerConfig: { withLog: true } }] }) },
    ];
    const budget = { left: WANTED };
    const golden = join(dir, 'golden');
    mkdirSync(golden);
    for (const r of requests) {
      writeFileSync(join(golden, `${r.name}.request.json`), r.body);
      writeFileSync(join(golden, `${r.name}.response.json`), changed((await dispatch(r.body, ctx))!, budget));
    }
    if (budget.left > 0) throw new Error(`only ${WANTED - budget.left} values to change in block ${block}`);
    const set = readGolden(golden);
    const decoder = new AbiDecoder(readArtifacts(abiDir));
    const times: number[] = [];
    let text = '';
    let differences = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const report = await checkAll(ctx, set, { mode: 'bytes', decoder });
      text = textReport(report);
      times.push(performance.now() - started);
      differences = report.cases.reduce((n, c) => n + (c.status === 'fail' ? c.differences.length : 0), 0);
    }
    const command = [process.execPath, join(ROOT, 'src/cli.ts'), 'check', fixture, golden, '--abi', abiDir, '--cache', join(dir, 'cache')];
    await Bun.spawn(command, { stdout: 'ignore', stderr: 'ignore' }).exited; // writes the snapshot
    const started = performance.now();
    const proc = Bun.spawn(command, { stdout: 'pipe', stderr: 'ignore' });
    const printed = await new Response(proc.stdout).text();
    await proc.exited;
    const commandMs = performance.now() - started;
    if (printed !== text) throw new Error('the command printed another report than the in-process run');
    times.sort((a, b) => a - b);
    return { differences, cases: set.exchanges.length, reportMs: times[2]!, commandMs, reportBytes: text.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const [fixture, block, abiDir] = process.argv.slice(2);
  if (fixture === undefined || block === undefined || abiDir === undefined) throw new Error('usage: bun bench/checkReport.ts FIXTURE BLOCK ABI_DIR');
  console.log(JSON.stringify(await benchCheckReport(fixture, block, abiDir)));
}
