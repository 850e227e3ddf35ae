// Shared by the face tests: request bodies and a harness runner.
import { join } from 'node:path';

export const ROOT = join(import.meta.dir, '..');
export const PRAGUE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
export const BUN = join(ROOT, 'node_modules/.bin/bun');
export const CLI = join(ROOT, 'src/cli.ts');

const r = (method: string, params: unknown, id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** One body per error class and per method family; none is a notification. */
export const BODIES: readonly string[] = [
  r('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]),
  r('debug_traceBlockByNumber', ['0x2', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }], 'p'),
  r('trace_block', ['0x1']),
  r('eth_getBlockByNumber', ['latest', true]),
  r('eth_chainId', []),
  r('debug_traceBlockByNumber', ['0x1']),
  r('debug_traceBlockByNumber', ['0x1', { tracer: 'flatCallTracer' }]),
  r('debug_traceBlockByNumber', ['0x0', { tracer: 'callTracer' }]),
  r('debug_traceBlockByNumber', ['0x3f4', { tracer: 'callTracer' }]),
  r('debug_traceBlockByNumber', ['3']),
  r('trace_block', ['0x3f4']),
  r('no_such_method', []),
  '{"jsonrpc":"2.0","id":1,',
  '[]',
  `[${r('eth_blockNumber', [], 1)},${r('trace_block', [1], 2)}]`,
  // the Otterscan API: a page of an address's history, a block's transactions, anvil's parameter texts
  r('ots_searchTransactionsBefore', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', 0, 2]),
  r('ots_getBlockTransactions', [2, 0, 3]),
  r('ots_getTransactionBySenderAndNonce', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', -1]),
  r('ots_getBlockDetails', 5),
];

export async function runHarness(args: readonly string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  // env given: Bun.spawn otherwise passes the environment the process started with, not test/setup.ts's run directory
  const proc = Bun.spawn([BUN, CLI, ...args], { cwd: ROOT, env: process.env, stdin: new TextEncoder().encode(stdin), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}
