// `blocktrace diff A B` (issue 35) on a real anvil: the vault scenario (test/helpers/vaultChain.ts)
// mined twice, with a fee of 250 and of 300 basis points: the same transactions, paired by position.
// diff names where the call trees part with decoded names, the event argument that changed, the
// storage slot and both values, and the gas; a chain against itself is all identical. The real CLI.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRAGUE, runHarness } from './faces.ts';
import { buildVaultChain, type VaultChain } from './helpers/vaultChain.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-diff-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let v1: VaultChain;
let v2: VaultChain;
beforeAll(async () => {
  const build = (name: string, fee: number) => {
    mkdirSync(join(work, name));
    return buildVaultChain({ fee, deterministic: true, dir: join(work, name) });
  };
  [v1, v2] = await Promise.all([build('v1', 250), build('v2', 300)]);
}, SLOW);

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!;

describe('diff of the two vault chains', () => {
  test('block 4: where the trees part, decoded; the event argument; the storage slot with both values', async () => {
    const { code, stdout } = await runHarness(['diff', v1.fixture, v2.fixture, '4', '--abi', v1.abiDir, '--no-cache']);
    expect(code).toBe(1);
    const user = v1.addresses.user1;
    expect(stdout).toStartWith(`A: ${v1.fixture}\nB: ${v2.fixture}\n\nblock 4 tx 0 (${v1.txHashes.deposit1.slice(0, 10)}… | ${v2.txHashes.deposit1.slice(0, 10)}…): gas used `);
    expect(stdout).toContain('  the call trees part at CALL Vault.deposit(amount: 100000000000000000000)\n    logs[0].data\n');
    expect(stdout).toContain(
      `  logs that differ:\n    CALL Vault.deposit(amount: 100000000000000000000) › logs[0]: Deposited(user: ${user}, amount: 100000000000000000000, fee: 2500000000000000000) → Deposited(user: ${user}, amount: 100000000000000000000, fee: 3000000000000000000)\n`,
    );
    expect(stdout).toMatch(new RegExp(`      deposits\\[${user}\\]  \\(storage\\[0x[0-9a-f]{64}\\]\\)\\n        A: "0x[0-9a-f]{64}"\\n        B: "0x[0-9a-f]{64}"\\n {12,}\\^+\\n        A means: 97500000000000000000\\n        B means: 97000000000000000000\\n`));
    expect(lastLine(stdout)).toBe('2 transaction pairs in 1 blocks: 0 identical, 2 differ; 0 only in A, 0 only in B');
  }, SLOW);

  test('the whole chains: every pair counted, the gas table with the deployment that costs more', async () => {
    const { code, stdout } = await runHarness(['diff', v1.fixture, v2.fixture, '--no-cache']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/\ngas used \(A → B\):\n  block 1 tx 0  [\d,]+ → [\d,]+\n  block 2 tx 0  479,346 → 479,358  \+12 \(\+0\.003%\)\n/);
    expect(lastLine(stdout)).toMatch(/^11 transaction pairs in 6 blocks: \d+ identical, \d+ differ; 0 only in A, 0 only in B$/);
    const json = JSON.parse((await runHarness(['diff', v1.fixture, v2.fixture, '--json', '--no-cache'])).stdout);
    expect(json.identical + json.differ).toBe(11);
    expect(json.pairs.find((p: { block: string; index: number }) => p.block === '4' && p.index === 0).calls[0]).toMatchObject({ path: '$.result[0].result.logs[0].data', field: 'logs[0].data' });
  }, SLOW);

  test('a chain against itself: exit 0, the identical pairs counted', async () => {
    const { code, stdout } = await runHarness(['diff', v1.fixture, v1.fixture, '--no-cache']);
    expect([code, stdout]).toEqual([0, `A: ${v1.fixture}\nB: ${v1.fixture}\n\n11 transaction pairs in 6 blocks: 11 identical, 0 differ; 0 only in A, 0 only in B\n`]);
  }, SLOW);

  test('bad input: a block one side lacks is named and skipped; another chain id needs --any-chain; an unreadable --abi', async () => {
    const missing = await runHarness(['diff', v1.fixture, v2.fixture, '99', '--no-cache']);
    expect([missing.code, missing.stdout.split('\n')[3]]).toEqual([1, 'skipped block 99: A and B have no block 99']);
    const chains = await runHarness(['diff', v1.fixture, PRAGUE, '--no-cache']);
    expect(chains.code).toBe(2);
    expect(chains.stderr).toContain('compare them anyway with --any-chain');
    const abi = await runHarness(['diff', v1.fixture, v2.fixture, '--abi', '/nonexistent']);
    expect([abi.code, abi.stderr]).toEqual([2, 'blocktrace: cannot read --abi /nonexistent: ENOENT\n']);
  }, SLOW);
});
