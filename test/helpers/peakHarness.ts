// The harness (`--replay-file`) in a child process, its peak RSS polled (VmHWM): for the tests that
// show a large answer is refused within bounded memory (hugeResult, hugeStructLog).
import { expect } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '../..');

export const TOO_LARGE = (id: number): string => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32003,"message":"response too large"}}`;
export const req = (id: number, method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** Runs the harness on `fixture` (no cache) with `options` and `requests`: its answer lines, its peak RSS in MiB and its time. */
export async function peakHarness(fixture: string, options: readonly string[], requests: readonly string[]): Promise<{ lines: string[]; peakMiB: number; ms: number }> {
  const start = performance.now();
  const proc = Bun.spawn([process.execPath, 'src/cli.ts', '--replay-file', fixture, '--no-cache', ...options, ...requests], {
    cwd: ROOT, stdout: 'pipe', stderr: 'pipe',
  });
  let peakKiB = 0;
  const poll = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
      if (hwm) peakKiB = Math.max(peakKiB, Number(hwm[1]));
    } catch {
      // the child has exited between two polls
    }
  }, 5);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearInterval(poll);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  return { lines: stdout.split('\n').slice(0, -1), peakMiB: peakKiB / 1024, ms: performance.now() - start };
}
