// The library as the package ships it (dist/lib/index.mjs) under each runtime the issue names: Node
// (≥ 20), Bun and Deno each open builtin:cancun-devnet, trace a block and a transaction, and throw
// the same error for a transaction not on the chain; the three give the same bytes as the harness.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { BUN, CLI, ROOT } from './faces.ts';

const LIBRARY = join(ROOT, 'dist/lib/index.mjs');
const DENO = join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno');
const FIXTURE = 'builtin:cancun-devnet';
const TRACE = ['0x1', { tracer: 'callTracer', tracerConfig: { withLog: true } }];

// one script for the three runtimes: its stdout is one JSON line
const SCRIPT = `
import { openChain } from ${JSON.stringify(LIBRARY)};
const chain = await openChain(${JSON.stringify(FIXTURE)}, { cache: false });
const raw = await chain.requestRaw('debug_traceBlockByNumber', ${JSON.stringify(TRACE)});
const block = await chain.request('eth_getBlockByNumber', ['0x1', false]);
const trace = await chain.trace(block.transactions[0]);
const missing = await chain.trace('0x${'ab'.repeat(32)}').then(() => 'no error', (e) => [e.name, e.code, e.message]);
await chain.close();
console.log(JSON.stringify({ raw, trace, missing }));
`;

const RUNTIMES: readonly (readonly [string, readonly string[]])[] = [
  ['Node', [process.env['NODE'] ?? 'node', '--input-type=module', '-e', SCRIPT]],
  ['Bun', [BUN, '-e', SCRIPT]],
  ['Deno', [DENO, 'eval', '--ext=js', SCRIPT]],
];

async function run(cmd: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([...cmd], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe', timeout: 60_000, env: { ...process.env, DENO_NO_UPDATE_CHECK: '1' } });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test.each(RUNTIMES)('the packaged library under %s: the harness bytes, a trace, one thrown error', async (_name, cmd) => {
  const harness = Bun.spawn([BUN, CLI, '--replay-file', FIXTURE, '--no-cache', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: TRACE })], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  const expected = (await new Response(harness.stdout).text()).replace(/\n$/, '');
  const { code, stdout, stderr } = await run(cmd);
  expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
  const { raw, trace, missing } = JSON.parse(stdout.trim().split('\n').pop()!) as { raw: string; trace: unknown; missing: unknown };
  expect(raw).toBe(expected);
  const { result } = JSON.parse(raw) as { result: { result: unknown }[] };
  expect(trace).toEqual(result[0]!.result);
  expect(missing).toEqual(['RpcCallError', -32000, expect.stringContaining('not found')]);
}, 120_000);
