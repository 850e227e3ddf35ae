// The snapshot matchers' core (src/api/traceSnapshot.ts, gasSnapshot.ts) in the process, on the
// cancun-devnet chain, with the state a runner would give: the first run writes record's pair,
// `blocktrace check` passes on it, an edited snapshot fails with check's report, the update mode
// rewrites it, CI never writes, names and obsolete files, gas tolerance, and bad input as one thrown
// error with nothing written. The runners themselves: test/apiRunners.test.ts.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Chain, gasSnapshotMatcher, openChain, reportObsolete, type RunnerState, traceSnapshotMatcher } from '../src/api/index.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-snapshots-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let chain: Chain;
let txs: string[];

beforeAll(async () => {
  chain = await openChain('builtin:cancun-devnet');
  txs = (await chain.request<{ transactions: string[] }>('eth_getBlockByNumber', ['0x1', false])).transactions;
}, 60_000);

let n = 0;
/** A fresh test file's state in its own directory. */
function runner(update: RunnerState['update'] = 'new', testName?: string): RunnerState {
  const dir = join(work, `project${++n}`);
  mkdirSync(dir);
  return { testPath: join(dir, 'vault.test.ts'), testName, update, updateFlag: 'runner -u' };
}
const files = (state: RunnerState): string[] => {
  const dir = join(state.testPath, '../__traces__');
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : [];
};

async function check(dir: string): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn([BUN, CLI, 'check', 'builtin:cancun-devnet', dir, '--no-cache'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

test('the first run writes record\'s pair, pretty, which blocktrace check passes; the next run passes', async () => {
  const state = runner('new', 'deposit');
  expect((await traceSnapshotMatcher(state, { chain, tx: txs[0] })).pass).toBe(true);
  expect((await traceSnapshotMatcher(state, { chain, block: 1 }, 'block one')).pass).toBe(true);
  expect(files(state)).toEqual(['vault.test.ts', 'vault.test.ts/block_one.request.json', 'vault.test.ts/block_one.response.json', 'vault.test.ts/deposit_1.request.json', 'vault.test.ts/deposit_1.response.json']);
  const dir = join(state.testPath, '../__traces__/vault.test.ts');
  expect(readFileSync(join(dir, 'deposit_1.request.json'), 'utf8')).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceTransaction', params: [txs[0], { tracer: 'callTracer', tracerConfig: { withLog: true } }] }));
  expect(readFileSync(join(dir, 'deposit_1.response.json'), 'utf8')).toBe(JSON.stringify(JSON.parse(await chain.requestRaw('debug_traceTransaction', [txs[0], { tracer: 'callTracer', tracerConfig: { withLog: true } }])), null, 2));
  expect(await check(dir)).toEqual({ code: 0, stdout: '2 passed, 0 failed\n' });
  expect((await traceSnapshotMatcher({ ...state, update: 'none' }, { chain, block: 1 }, 'block one')).pass).toBe(true);
}, 60_000);

test('a snapshot that differs fails with check\'s report; the update mode rewrites it; CI writes nothing', async () => {
  const state = runner();
  await traceSnapshotMatcher(state, { chain, block: 1 }, 'block');
  const file = join(state.testPath, '../__traces__/vault.test.ts/block.response.json');
  const recorded = readFileSync(file, 'utf8');
  writeFileSync(file, recorded.replace('"gasUsed": "0x5208"', '"gasUsed": "0x5209"'));
  const failed = await traceSnapshotMatcher(state, { chain, block: 1 }, 'block');
  expect(failed.pass).toBe(false);
  const report = (await check(join(state.testPath, '../__traces__/vault.test.ts'))).stdout;
  // the failure message is check's text report of the case, and says how to update
  expect(failed.message()).toBe(`${report.slice(0, report.lastIndexOf('\n0 passed'))}\n  (\`runner -u\` accepts the new answer as the snapshot)`);
  expect(failed.message()).toContain('gas:      21,001 → 21,000 (-1)');
  expect((await traceSnapshotMatcher({ ...state, update: 'all' }, { chain, block: 1 }, 'block')).pass).toBe(true);
  expect(readFileSync(file, 'utf8')).toBe(recorded);
  const ci = runner('none', 'new one');
  const missing = await traceSnapshotMatcher(ci, { chain, tx: txs[0] });
  expect(missing.pass).toBe(false);
  expect(missing.message()).toContain('is missing, and in CI a missing snapshot is not written');
  expect(files(ci)).toEqual([]);
}, 60_000);

test('another request under the same name fails (the update mode records the new one); a runner without test names names it from the request', async () => {
  const state = runner();
  await traceSnapshotMatcher(state, { chain, tx: txs[0] }, 'first');
  const other = await traceSnapshotMatcher(state, { chain, tx: txs[1] }, 'first');
  expect(other.pass).toBe(false);
  expect(other.message()).toContain('the snapshot was recorded for another request');
  expect((await traceSnapshotMatcher({ ...state, update: 'all' }, { chain, tx: txs[1] }, 'first')).pass).toBe(true);
  expect(readFileSync(join(state.testPath, '../__traces__/vault.test.ts/first.request.json'), 'utf8')).toContain(txs[1]!);
  await traceSnapshotMatcher(state, { chain, tx: txs[0], tracer: 'prestateTracer' });
  expect(files(state)).toContain(`vault.test.ts/${txs[0]!.slice(0, 10)}.debug_traceTransaction.prestateTracer.response.json`);
}, 60_000);

test('bad input: a transaction not on the chain, a snapshot edited into invalid JSON, a value that is no target: one thrown error, nothing written', async () => {
  const state = runner();
  const absent = `0x${'ab'.repeat(32)}`;
  await expect(traceSnapshotMatcher(state, { chain, tx: absent }, 'absent')).rejects.toThrow(`toMatchTraceSnapshot: debug_traceTransaction ${absent}: transaction not found (no snapshot written)`);
  await expect(gasSnapshotMatcher(state, { chain, tx: absent }, 'absent')).rejects.toThrow(`toMatchGasSnapshot: transaction ${absent} is not on the chain (no snapshot written)`);
  expect(files(state)).toEqual([]);
  await traceSnapshotMatcher(state, { chain, block: 1 }, 'block');
  const file = join(state.testPath, '../__traces__/vault.test.ts/block.response.json');
  writeFileSync(file, '{"jsonrpc": "2.0", "result": [');
  for (const update of ['new', 'all'] as const) {
    await expect(traceSnapshotMatcher({ ...state, update }, { chain, block: 1 }, 'block')).rejects.toThrow(`toMatchTraceSnapshot: ${file} is not valid JSON (edited by hand?): restore it, or delete it and its pair to have the snapshot written anew`);
  }
  expect(readFileSync(file, 'utf8')).toBe('{"jsonrpc": "2.0", "result": [');
  await expect(traceSnapshotMatcher(state, { tx: txs[0] })).rejects.toThrow('toMatchTraceSnapshot: expect() takes { chain, tx } or { chain, block }');
  await expect(traceSnapshotMatcher(state, txs[0])).rejects.toThrow('with a chain from openChain');
}, 60_000);

test('gas: one file per test file in forge snapshot\'s lines; a tolerance absolute or relative; update and CI as the traces', async () => {
  const state = runner('new', 'transfer');
  expect((await gasSnapshotMatcher(state, { chain, tx: txs[0] })).pass).toBe(true);
  expect((await gasSnapshotMatcher(state, { gasUsed: 50_000n }, 'swap')).pass).toBe(true);
  const file = join(state.testPath, '../__traces__/vault.test.ts.gas');
  expect(readFileSync(file, 'utf8')).toBe('swap (gas: 50000)\ntransfer 1 (gas: 21000)\n');
  const moved = await gasSnapshotMatcher(state, 50_400n, 'swap');
  expect([moved.pass, moved.message()]).toEqual([false, `gas of "swap": 50000 → 50400 (+400, +0.80%), past its no tolerance  (${file})\n  (\`runner -u\` accepts the new value)`]);
  expect((await gasSnapshotMatcher(state, 50_400n, 'swap', { tolerance: 400 })).pass).toBe(true);
  expect((await gasSnapshotMatcher(state, 50_400n, 'swap', { tolerance: '1%' })).pass).toBe(true);
  expect((await gasSnapshotMatcher(state, 50_600n, 'swap', { tolerance: '1%' })).message()).toContain('+600, +1.20%), past its tolerance 1%');
  expect(readFileSync(file, 'utf8')).toBe('swap (gas: 50000)\ntransfer 1 (gas: 21000)\n');
  expect((await gasSnapshotMatcher({ ...state, update: 'all' }, 50_600n, 'swap')).pass).toBe(true);
  expect(readFileSync(file, 'utf8')).toBe('swap (gas: 50600)\ntransfer 1 (gas: 21000)\n');
  expect((await gasSnapshotMatcher({ ...state, update: 'none' }, 1n, 'new')).pass).toBe(false);
  await expect(gasSnapshotMatcher(state, 1n, 'x', { tolerance: 'lots' as '1%' })).rejects.toThrow("tolerance is gas (500) or a share of the recorded value ('2%')");
  writeFileSync(file, 'swap: 50600\n');
  await expect(gasSnapshotMatcher(state, 1n, 'swap')).rejects.toThrow(`toMatchGasSnapshot: ${file}:1 is not \`NAME (gas: N)\``);
  rmSync(file);
}, 60_000);

test('the snapshots of a test file that no test asked for are reported, not removed', async () => {
  reportObsolete(() => {}); // what the tests above left
  const state = runner();
  await traceSnapshotMatcher(state, { chain, block: 1 }, 'kept');
  await traceSnapshotMatcher(state, { chain, tx: txs[0] }, 'gone');
  await gasSnapshotMatcher(state, 1n, 'gas kept');
  await gasSnapshotMatcher(state, 2n, 'gas gone');
  reportObsolete(() => {});
  await traceSnapshotMatcher(state, { chain, block: 1 }, 'kept');
  await gasSnapshotMatcher(state, 1n, 'gas kept');
  const said: string[] = [];
  reportObsolete((line) => said.push(line));
  expect(said).toHaveLength(2);
  expect(said[0]).toMatch(/^blocktrace: obsolete trace snapshot .*__traces__\/vault\.test\.ts\/gone\.response\.json: no test asked for it in this run$/);
  expect(said[1]).toMatch(/^blocktrace: obsolete gas snapshot "gas gone" in .*vault\.test\.ts\.gas: no test asked for it in this run$/);
  expect(files(state)).toContain('vault.test.ts/gone.response.json');
}, 60_000);
