// `blocktrace diff` (issue 35) of two versions of the vault's code on a real anvil: the same
// transactions, the same constructor arguments (fee 250 bps), but version 2's `deposit` computes the
// fee per mille instead of per ten thousand (one line of one function; test/helpers/solc.ts). diff
// names the first frame where the trees part (decoded with either version's ABI), the event
// argument that changed, the storage slots with both values, the deployment whose code differs,
// and the gas. The real CLI.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHarness } from './faces.ts';
import { buildVaultChain, type VaultChain } from './helpers/vaultChain.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-diff-code-'));
let v1: VaultChain;
let v2: VaultChain;
beforeAll(async () => {
  const build = (name: string, variant: 'bps' | 'perMille') => {
    mkdirSync(join(work, name));
    // version 2's anvil keeps serving its chain: diff reads it as --upstream too
    return buildVaultChain({ fee: 250, variant, deterministic: true, dir: join(work, name), keepNode: variant === 'perMille' });
  };
  [v1, v2] = await Promise.all([build('v1', 'bps'), build('v2', 'perMille')]);
}, SLOW);
afterAll(async () => {
  await v2?.node?.stop();
  rmSync(work, { recursive: true, force: true });
});

test('deposits: the first differing frame decoded, the Deposited fee on each side, deposits[user] and feesCollected with both values', async () => {
  const { code, stdout } = await runHarness(['diff', v1.fixture, v2.fixture, String(v1.txBlocks.deposit1), '--abi', v2.abiDir, '--no-cache']);
  expect(code).toBe(1);
  const user = v1.addresses.user1;
  expect(stdout).toContain('  the call trees part at CALL Vault.deposit(amount: 100000000000000000000)\n');
  expect(stdout).toContain(`Deposited(user: ${user}, amount: 100000000000000000000, fee: 2500000000000000000) → Deposited(user: ${user}, amount: 100000000000000000000, fee: 25000000000000000000)`);
  expect(stdout).toMatch(new RegExp(`deposits\\[${user}\\]  \\(storage\\[0x[0-9a-f]{64}\\]\\)\\n        A: "0x[0-9a-f]{64}"\\n        B: "0x[0-9a-f]{64}"\\n {12,}\\^+\\n        A means: 97500000000000000000\\n        B means: 75000000000000000000\\n`));
  expect(stdout).toMatch(/feesCollected {2}\(storage\[0x0{63}2\]\)\n/);
  // the second deposit's vault code differs as the first's did: referred to, not repeated
  expect(stdout).toMatch(new RegExp(`\\n {6}code, codeHash, feesCollected .*: as at block ${v1.txBlocks.deposit1} tx 0\\n`));
  expect(stdout.trimEnd().split('\n').at(-1)).toBe('2 transaction pairs in 1 blocks: 0 identical, 2 differ; 0 only in A, 0 only in B');
}, SLOW);

test('the whole chains: the vault\'s deployment differs (its code), the token\'s does not; the code difference each later pair inherits is named once, then referred to', async () => {
  const { code, stdout } = await runHarness(['diff', v1.fixture, v2.fixture, '--abi', v1.abiDir, '--no-cache']);
  expect(code).toBe(1);
  const deployVault = `block ${v1.txBlocks.deployVault} tx 0 (`;
  const deployToken = `block ${v1.txBlocks.deployToken} tx 0 (`;
  expect(stdout).toContain(deployVault);
  expect(stdout).not.toContain(deployToken);
  expect(stdout).toContain(`  the call trees part at CREATE Vault(0xe7f1…0512)\n    input\n`);
  // the same gas both ways (the divisor is one PUSH2 either way): no gas table
  expect(stdout).not.toContain('gas used (A → B)');
  expect(stdout).toContain(`    pre › Vault(0xe7f1…0512)\n      code, codeHash: as at block ${v1.txBlocks.deployVault} tx 0\n`);
  expect(stdout).toMatch(/^11 transaction pairs in 6 blocks: \d+ identical, \d+ differ; 0 only in A, 0 only in B\n$/m);
  const json = JSON.parse((await runHarness(['diff', v1.fixture, v2.fixture, '--json', '--no-cache'])).stdout) as { identical: number; differ: number };
  expect(json.identical).toBeGreaterThan(0);
  expect(json.identical + json.differ).toBe(11);
}, SLOW);

test('a side may be a node (--upstream URL): the fixture against the anvil that mined version 2 reports what the two fixtures do; the node against its own capture is identical', async () => {
  const block = String(v1.txBlocks.deposit1);
  const fixtures = await runHarness(['diff', v1.fixture, v2.fixture, block, '--abi', v2.abiDir, '--json', '--no-cache']);
  const node = await runHarness(['diff', v1.fixture, '--upstream', v2.node!.url, block, '--abi', v2.abiDir, '--json', '--no-cache']);
  expect(node.code).toBe(1);
  const strip = (text: string) => ({ ...(JSON.parse(text) as Record<string, unknown>), a: undefined, b: undefined });
  expect(strip(node.stdout)).toEqual(strip(fixtures.stdout));
  const same = await runHarness(['diff', '--upstream', v2.node!.url, v2.fixture, '--no-cache']);
  expect([same.code, same.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, '11 transaction pairs in 6 blocks: 11 identical, 0 differ; 0 only in A, 0 only in B']);
}, SLOW);
