// `check` in CI against a regression made on a real anvil (issue 34). The vault scenario
// (test/helpers/vaultChain.ts: a token, deposits with events and a fee, a reverting withdraw beside a
// good one, a CREATE from a contract) is mined into the pinned anvil and captured as a fixture, in
// version 1 (fee 250 bps) and version 2 (300 bps: another constructor argument, the same code).
// Goldens recorded from version 1 pass on version 1 and fail on version 2. Two recipes for chains
// mined again: a deterministic anvil (`--timestamp`, `--no-mining`, `--order fifo`, an explicit
// timestamp per `evm_mine`, explicit nonces) gives the same chain byte for byte, so its check needs no
// ignores; a re-mined chain (wall-clock timestamps, another coinbase) differs in block hashes, times,
// mixHash, the miner and its balance, and passes with the `--ignore` rules that name exactly those.
// Every command is the real CLI, spawned (test/faces.ts runHarness).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAbiParameters, keccak256 } from 'viem';
import { runHarness } from './faces.ts';
import { buildVaultChain, writeVaultRequests, type VaultChain, type VaultChainOptions } from './helpers/vaultChain.ts';

/** Anvil, captures and CLI runs on a loaded 2-core machine. */
const SLOW = 120_000;
/** The re-mined chain's fee recipient (anvil's default is the zero address). */
const REMINED_COINBASE = '0x000000000000000000000000000000000000c0de';
/** What a chain mined again from the same signed transactions changes, and nothing else (see the re-mined test). */
const REMINED_IGNORES = [
  // trace_block entries, receipts and their logs name their block by hash, and logs carry its time
  'blockHash',
  'blockTimestamp',
  // eth_getBlockByNumber: the header's own hash, its parent's, its time, prevRandao (anvil derives it
  // from the timestamp), the fee recipient, and the state root (the recipient's balance is in it)
  'hash',
  'parentHash',
  'timestamp',
  'mixHash',
  'miner',
  'stateRoot',
  // prestateTracer (diffMode): each transaction's tip goes to the coinbase, an account of pre and post
  '0x0000000000000000000000000000000000000000',
  REMINED_COINBASE,
];

const work = mkdtempSync(join(tmpdir(), 'blocktrace-regression-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type ChainName = 'v1' | 'v2' | 'v1Again' | 'v1Remined';
/** The chains, all built at once (each on its own anvil) when the file starts; each test awaits those it needs. */
const chains = {} as Record<ChainName, Promise<VaultChain>>;
const timings: string[] = [];
function build(name: ChainName, options: Omit<VaultChainOptions, 'dir'>): void {
  const dir = join(work, name);
  mkdirSync(dir);
  const started = performance.now();
  chains[name] = buildVaultChain({ ...options, dir }).then((chain) => {
    timings.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return chain;
  });
  chains[name].catch(() => undefined); // awaited by the tests; one filtered out must not leave a rejection unhandled
}

beforeAll(() => {
  build('v1', { fee: 250, deterministic: true });
  build('v2', { fee: 300, deterministic: true });
  build('v1Again', { fee: 250, deterministic: true });
  build('v1Remined', { fee: 250, deterministic: false, coinbase: REMINED_COINBASE });
});
afterAll(() => {
  if (timings.length > 0) console.log(`vault chains built: ${timings.join(', ')}`);
});

/** `record` of the v1 chain into a new directory, once per request set. */
const recorded = new Map<string, Promise<string>>();
function goldensOf(name: 'plain' | 'blocks'): Promise<string> {
  if (!recorded.has(name)) {
    recorded.set(name, (async () => {
      const v1 = await chains.v1;
      const requests = writeVaultRequests(v1, join(work, `requests-${name}.txt`), { blocks: name === 'blocks' });
      const out = join(work, `goldens-${name}`);
      const run = await runHarness(['record', v1.fixture, requests, '--out', out]);
      if (run.code !== 0) throw new Error(`record exited ${run.code}: ${run.stderr}`);
      return out;
    })());
  }
  return recorded.get(name)!;
}

const lastLine = (stdout: string): string => stdout.trimEnd().split('\n').at(-1)!;

/** The text report's failing cases by name: each `FAIL NAME  (FILE)` line and the lines under it. */
function caseBlocks(report: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const block of report.split(/^(?=FAIL )/m)) {
    const name = /^FAIL (\S+)/.exec(block)?.[1];
    if (name !== undefined) blocks.set(name, block);
  }
  return blocks;
}

describe('a regression on a real anvil: the vault scenario', () => {
  test('the chain: six blocks captured; the contracts are named and decoded with --abi', async () => {
    const v1 = await chains.v1;
    expect(v1.lastBlock).toBe(6);
    expect(v1.txBlocks).toMatchObject({ deployToken: 1, deployVault: 2, deposit1: 4, withdrawTooMuch: 5, withdraw: 5, openAccount: 6 });
    expect(readdirSync(v1.abiDir).sort()).toEqual(['Token.sol', 'Vault.sol']);
    const show = await runHarness(['show', v1.fixture, '5', '--abi', v1.abiDir]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('Vault::withdraw(amount: 1000000000000000000000)');
    expect(show.stdout).toContain('[Revert] Vault: insufficient deposit');
    const create = await runHarness(['show', v1.fixture, v1.txHashes.openAccount, '--abi', v1.abiDir]);
    expect(create.stdout).toContain(`new Receipt@${v1.addresses.receipt}`);
  }, SLOW);

  test('record v1, then check: v1 passes, v2 (fee 300 instead of 250) fails', async () => {
    const [v1, v2, goldens] = await Promise.all([chains.v1, chains.v2, goldensOf('plain')]);
    // 6 blocks × 4 requests + the deposit's receipt
    expect(readdirSync(goldens).filter((f) => f.endsWith('.request.json'))).toHaveLength(25);
    const same = await runHarness(['check', v1.fixture, goldens]);
    expect(same.code).toBe(0);
    expect(lastLine(same.stdout)).toBe('25 passed, 0 failed');
    const changed = await runHarness(['check', v2.fixture, goldens]);
    expect(changed.code).toBe(1);
    // the same: block 1's four answers (the token) and the callTracer answers of blocks 3 and 5 (mints and
    // approvals; the withdraws). Everything the fee reaches differs: the vault's deployment (and its gas,
    // then every later base fee and balance), the deposits' storage and events, the Receipt it creates
    expect(lastLine(changed.stdout)).toBe('6 passed, 19 failed');
  }, SLOW);

  test('the report of v2 says what changed: the storage slot, the event word, the frame path, decoded with --abi', async () => {
    const [v1, v2, goldens] = await Promise.all([chains.v1, chains.v2, goldensOf('plain')]);
    const { code, stdout } = await runHarness(['check', v2.fixture, goldens, '--abi', v1.abiDir]);
    expect(code).toBe(1);
    const cases = caseBlocks(stdout);
    const short = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`.toLowerCase();
    const vault = `Vault(${short(v1.addresses.vault)})`;
    const user1 = v1.addresses.user1;
    const deposit1 = `tx 0 (${v1.txHashes.deposit1.slice(0, 10)}…)`;

    // the storage slot that changed: deposits[user1] (the mapping of slot 3, named from the artifact's
    // storage layout and the addresses of the answer), 97.5 against 97 tokens
    const slot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [user1, 3n]));
    const word = (n: bigint): string => `"0x${n.toString(16).padStart(64, '0')}"`;
    const prestate = cases.get('0x4.debug_traceBlockByNumber.prestateTracer.diffMode')!;
    expect(prestate).toContain(`  ${deposit1} › post › ${vault}\n`);
    expect(prestate).toContain(
      [
        `    deposits[${user1}]  (storage[${slot}])`,
        `      expected: ${word(975n * 10n ** 17n)}`,
        `      got:      ${word(970n * 10n ** 17n)}`,
        `${' '.repeat(68)}${'^'.repeat(11)}`,
        '      expected means: 97500000000000000000',
        '      got means:      97000000000000000000',
        `      at $.result[0].result.post["${v1.addresses.vault.toLowerCase()}"].storage["${slot}"]`,
      ].join('\n'),
    );

    // the event word that changed: Deposited's fee (the second word of its data), decoded on each side
    const callTracer = cases.get('0x4.debug_traceBlockByNumber.callTracer.withLog')!;
    const fee = (wei: bigint): string => `0x${wei.toString(16).padStart(64, '0')}`;
    expect(callTracer).toContain(
      [
        `  ${deposit1} › CALL Vault.deposit(amount: 100000000000000000000)`,
        '    logs[0].data',
        '      1 word of 32 bytes differ (offsets in bytes):',
        '        @32',
        `          expected: ${fee(25n * 10n ** 17n)}`,
        `          got:      ${fee(30n * 10n ** 17n)}`,
        `${' '.repeat(71)}${'^'.repeat(11)}`,
        `      expected means: Deposited(user: ${user1}, amount: 100000000000000000000, fee: 2500000000000000000)`,
        `      got means:      Deposited(user: ${user1}, amount: 100000000000000000000, fee: 3000000000000000000)`,
        '      at $.result[0].result.logs[0].data',
      ].join('\n'),
    );

    // the frame path of the CREATE from a contract: the Receipt's constructor argument (the deposit)
    const create = cases.get('0x6.debug_traceBlockByNumber.callTracer.withLog')!;
    expect(create).toContain(`  tx 0 (${v1.txHashes.openAccount.slice(0, 10)}…) › CALL Vault.openAccount() › CREATE Receipt(${short(v1.addresses.receipt)})\n    input\n`);
    // the revert is the same on both chains, so the withdraw block's callTracer case passes
    expect(cases.has('0x5.debug_traceBlockByNumber.callTracer.withLog')).toBe(false);
    expect(lastLine(stdout)).toBe('6 passed, 19 failed');
  }, SLOW);

  test('deterministic anvil: a second run mines the same chain, and passes check with no ignores', async () => {
    const [v1, again, goldens] = await Promise.all([chains.v1, chains.v1Again, goldensOf('blocks')]);
    expect(again.blockHashes).toEqual(v1.blockHashes);
    expect(again.txHashes).toEqual(v1.txHashes);
    const run = await runHarness(['check', again.fixture, goldens]);
    expect(run.code).toBe(0);
    expect(lastLine(run.stdout)).toBe('31 passed, 0 failed');
  }, SLOW);

  test('re-mined chain: other hashes, times and coinbase fail check; the ignore rules for exactly those pass it', async () => {
    const [v1, remined, goldens] = await Promise.all([chains.v1, chains.v1Remined, goldensOf('blocks')]);
    // the same signed transactions in the same blocks, mined again
    expect(remined.txHashes).toEqual(v1.txHashes);
    remined.blockHashes.forEach((hash, n) => expect(hash).not.toBe(v1.blockHashes[n]!));
    const plain = await runHarness(['check', remined.fixture, goldens]);
    expect(plain.code).toBe(1);
    // only the callTracer answers (no block hash, time or coinbase in them) pass
    expect(lastLine(plain.stdout)).toBe('6 passed, 25 failed');
    const ignoring = await runHarness(['check', remined.fixture, goldens, ...REMINED_IGNORES.flatMap((rule) => ['--ignore', rule])]);
    expect(ignoring.stderr).toBe('');
    expect(ignoring.code).toBe(0);
    expect(lastLine(ignoring.stdout)).toBe('31 passed, 0 failed');
  }, SLOW);
});
