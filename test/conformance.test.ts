// The shared conformance runner (../shared/tools/conformance) over every visible corpus, through the
// harness contract. The runner encodes go-ethereum's rules where anvil's debug_* answers differ
// (accounts created in the tx, the slot of an SLOAD/SSTORE that ran out of gas, LOGn in a static
// call), so every case of every suite must pass.
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');
const RUNNER = join(ROOT, '../shared/tools/conformance/run.mjs');

interface SuiteReport {
  suite: string;
  total: number;
  failures: { case: string; failures: { kind: string; message: string }[] }[];
}

describe.skipIf(!existsSync(RUNNER))('shared conformance runner, visible corpora', () => {
  test('every case of every suite passes', async () => {
    const proc = Bun.spawn(['node', RUNNER, '--suite', 'all', '--cwd', ROOT, '--json', '--jobs', '2'], {
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env['PATH']}` },
    });
    const out = await new Response(proc.stdout).text();
    const code = await proc.exited;
    const line = out.split('\n').find((l) => l.startsWith('{'));
    const reports = line === undefined ? [] : (JSON.parse(line) as { suites: SuiteReport[] }).suites;
    expect(reports.map((r) => r.suite)).toEqual([
      'exapi-calltracer', 'exapi-errors', 'geth-call', 'geth-prestate', 'anvil-trace-block', 'anvil-calltracer', 'anvil-prestate',
    ]);
    for (const r of reports) expect(r.total).toBeGreaterThan(0);
    const failed = reports.flatMap((r) => r.failures.map((f) => `${r.suite} ${f.case}: ${f.failures.map((x) => x.message).join('; ')}`));
    expect(failed).toEqual([]);
    expect(code).toBe(0);
  }, 300_000);
});
