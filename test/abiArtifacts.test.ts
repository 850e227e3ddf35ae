// What `--abi` reads and what it decodes, through the real CLI on the vault scenario mined by a real
// anvil (test/helpers/vaultChain.ts, fees of 250 and 300 basis points): Hardhat 2 artifacts, whose
// immutables are only in the build-info (Token's owner is one), name their contracts as Foundry's
// do; creations show their constructor's arguments in show and diff; an --abi directory with no
// artifact in it is one warning line on stderr from every command, the exit status unchanged.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { PRAGUE, ROOT, runHarness } from './faces.ts';
import { serveFixture } from './helpers/browser.ts';
import { writeHardhatArtifacts } from './helpers/hardhatArtifacts.ts';
import { compileVault } from './helpers/solc.ts';
import { buildVaultChain, type VaultChain } from './helpers/vaultChain.ts';

const SLOW = 120_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-abi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let v1: VaultChain;
let v2: VaultChain;
let hardhat: string;
/** A directory with files in it, none of them an artifact. */
let empty: string;
beforeAll(async () => {
  const build = (name: string, fee: number) => {
    mkdirSync(join(work, name));
    return buildVaultChain({ fee, deterministic: true, dir: join(work, name) });
  };
  [v1, v2] = await Promise.all([build('v1', 250), build('v2', 300)]);
  hardhat = await writeHardhatArtifacts(await compileVault());
  empty = join(work, 'src');
  mkdirSync(empty);
  writeFileSync(join(empty, 'Vault.sol'), '// not an artifact\n');
  writeFileSync(join(empty, 'notes.json'), '{"not": "an artifact"}\n');
}, SLOW);

const show = (args: readonly string[]) => runHarness(['show', v1.fixture, ...args, '--no-cache']);
const warning = (dir: string): string => `blocktrace: --abi ${dir}: no artifacts found (expected Foundry out/, Hardhat artifacts/ or ABI .json files)`;
/** stderr without npm's own notices. */
const said = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn'));

describe('Hardhat 2 artifacts', () => {
  test('a contract with immutables (Token, its owner) is named from the build-info the .dbg.json points to, as with Foundry out/', async () => {
    const [foundry, viaHardhat] = await Promise.all([show([v1.txHashes.mint1, '--abi', v1.abiDir]), show([v1.txHashes.mint1, '--abi', hardhat])]);
    expect([viaHardhat.code, said(viaHardhat.stderr)]).toEqual([0, []]);
    const call = `Token::mint(to: ${v1.addresses.user1}, value: 1000000000000000000000)`;
    expect(foundry.stdout).toContain(call);
    expect(viaHardhat.stdout).toContain(call);
    expect(viaHardhat.stdout).toBe(foundry.stdout);
  }, SLOW);
});

describe('constructor arguments', () => {
  test('show: a top-level creation and a CREATE from a contract, with Foundry and with Hardhat artifacts', async () => {
    const { token, vault, receipt, user1 } = v1.addresses;
    for (const dir of [v1.abiDir, hardhat]) {
      const deploy = await show([v1.txHashes.deployVault, '--abi', dir]);
      expect(deploy.code).toBe(0);
      expect(deploy.stdout.split('\n')[1]).toMatch(new RegExp(`^\\[\\d+\\] → new Vault@${getAddress(vault)}\\(token_: ${token}, feeBps_: 250\\) create$`));
      const open = await show([v1.txHashes.openAccount, '--abi', dir]);
      // user1 deposited 100 (97.5 after the fee) and withdrew 10
      expect(open.stdout).toMatch(new RegExp(`├─ \\[\\d+\\] → new Receipt@${getAddress(receipt)}\\(holder_: ${user1}, amount_: 87500000000000000000\\) create\\n`));
    }
    // without artifacts the creation is as it was: no name, no arguments
    expect((await show([v1.txHashes.deployVault])).stdout.split('\n')[1]).toMatch(new RegExp(`^\\[\\d+\\] → new contract@${getAddress(vault)} create$`));
  }, SLOW);

  test('diff: the deployments differ in their constructor argument, and each side says what it means; the HTML report can decode it', async () => {
    const report = join(work, 'deploy.html');
    const { code, stdout } = await runHarness(['diff', v1.fixture, v2.fixture, String(v1.txBlocks.deployVault), '--abi', v1.abiDir, '--report', report, '--no-cache']);
    expect(code).toBe(1);
    const token = v1.addresses.token;
    expect(stdout).toContain(`      A means: new Vault(token_: ${token}, feeBps_: 250)\n      B means: new Vault(token_: ${token}, feeBps_: 300)\n`);
    // the report's call trees decode with the creation code of what they create, and carry no other
    const data = JSON.parse(/<script type="application\/json" id="data">(.*?)<\/script>/s.exec(readFileSync(report, 'utf8'))![1]!) as { abis: { name: string; creationCode?: string }[] };
    expect(data.abis.filter((a) => a.creationCode !== undefined).map((a) => a.name)).toEqual(['Vault']);
  }, SLOW);
});

describe('an --abi directory that holds no artifact', () => {
  test('show and diff: one warning line on stderr, the output and exit status as without --abi', async () => {
    const plain = await show(['2']);
    const warned = await show(['2', '--abi', empty]);
    expect([warned.code, warned.stdout]).toEqual([plain.code, plain.stdout]);
    expect(said(warned.stderr)).toEqual([warning(empty)]);
    // with a directory that has artifacts beside it: the empty one alone is named
    const both = await show(['2', '--abi', v1.abiDir, '--abi', empty]);
    expect([both.code, said(both.stderr)]).toEqual([0, [warning(empty)]]);
    const diff = await runHarness(['diff', v1.fixture, v1.fixture, '--abi', empty, '--no-cache']);
    expect([diff.code, said(diff.stderr)]).toEqual([0, [warning(empty)]]);
  }, SLOW);

  test('check: the warning, and the exit status check has without --abi', async () => {
    const golden = join(ROOT, 'golden/anvil/prague-devnet');
    const args = ['check', PRAGUE, golden, '--filter', 'block-0x1.trace_block', '--no-cache'];
    const plain = await runHarness(args);
    const warned = await runHarness([...args, '--abi', empty]);
    expect([warned.code, warned.stdout]).toEqual([plain.code, plain.stdout]);
    expect(said(warned.stderr)).toEqual([...said(plain.stderr), warning(empty)]);
  }, SLOW);

  test('serve: the warning at start, and it serves', async () => {
    const served = await serveFixture(v1.fixture, ['--abi', empty, '--no-cache']);
    try {
      expect(await (await fetch(`${served.url}/abi.json`)).json()).toEqual([]);
      expect(said(served.stderr())).toContain(warning(empty));
    } finally {
      await served.stop();
    }
  }, SLOW);
});
