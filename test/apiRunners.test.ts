// The matchers in the three runners (issue 48), each in an example project that installs blocktrace
// from the packed tarball (test/helpers/packedTarball.ts) and runs on Node (vitest, jest) or Bun
// (bun test), the runners (and viem, ethers) linked from this checkout's node_modules. The chain is the vault scenario
// of test/helpers/vaultChain.ts in two versions whose deposit computes its fee differently: the first
// run writes the snapshots and `blocktrace check` passes on them; a run against version 2 fails with
// check's report decoded with the vault's ABI; the runner's update flag rewrites them and check
// passes against version 2; with CI=true a missing snapshot fails and nothing is written. In the
// vitest project a test sends a transfer to the anvil that mined version 1 (viem) and snapshots it
// through { upstream }; `tsc` checks the package's types from a project that imports it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUN, ROOT } from './faces.ts';
import { exampleProject } from './helpers/packedTarball.ts';
import { buildVaultChain, type VaultChain } from './helpers/vaultChain.ts';

const SLOW = 240_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-runners-'));
const NODE = Bun.which('node')!;
/** Node's directory and the system's: no Bun for the Node runners; no CI variable unless a run sets it. */
const PATH = `${dirname(NODE)}:/usr/bin:/bin`;
let v1: VaultChain;
let v2: VaultChain;

afterAll(async () => {
  await v1?.node?.stop();
  rmSync(work, { recursive: true, force: true });
});

// the same test in each runner's words: a transaction, its block (named), the transaction's gas
const BODY = `const chain = await openChain(process.env.FIXTURE);
configure({ abi: [process.env.ABI] });

test('deposit', async () => {
  await expect({ chain, tx: process.env.DEPOSIT }).toMatchTraceSnapshot();
  await expect({ chain, block: Number(process.env.BLOCK) }).toMatchTraceSnapshot('deposit block');
  await expect({ chain, tx: process.env.DEPOSIT }).toMatchGasSnapshot('deposit', { tolerance: '10%' });
});
`;

// jest's, as docs/testing.md shows it: ethers finds the deposit in its block by its selector
const JEST_BODY = `import { configure, openChain } from 'blocktrace';
import { Interface } from 'ethers';

const chain = await openChain(process.env.FIXTURE);
configure({ abi: [process.env.ABI] });
const vault = new Interface(['function deposit(uint256 amount)']);

test('deposit', async () => {
  const block = await chain.request('eth_getBlockByNumber', ['0x' + Number(process.env.BLOCK).toString(16), true]);
  const deposit = block.transactions.find((tx) => tx.input.startsWith(vault.getFunction('deposit').selector));
  expect(deposit.hash).toBe(process.env.DEPOSIT);
  await expect({ chain, tx: deposit.hash }).toMatchTraceSnapshot();
  await expect({ chain, block: Number(process.env.BLOCK) }).toMatchTraceSnapshot('deposit block');
  await expect({ chain, tx: deposit.hash }).toMatchGasSnapshot('deposit', { tolerance: '10%' });
});
`;

const ANVIL_TEST = `import { expect, test } from 'vitest';
import 'blocktrace/vitest';
import { openChain } from 'blocktrace';
import { createTestClient, createWalletClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';

test.skipIf(process.env.ANVIL === undefined)('a transfer sent to anvil, traced through upstream', async () => {
  const transport = http(process.env.ANVIL);
  const account = privateKeyToAccount('0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a');
  const hash = await createWalletClient({ account, chain: foundry, transport }).sendTransaction({ to: '0x000000000000000000000000000000000000dEaD', value: parseEther('1') });
  await createTestClient({ chain: foundry, mode: 'anvil', transport }).mine({ blocks: 1 });
  const chain = await openChain({ upstream: process.env.ANVIL });
  await expect({ chain, tx: hash }).toMatchTraceSnapshot('transfer');
  await expect({ chain, tx: hash }).toMatchGasSnapshot('transfer');
});
`;

const TYPES = `import { type Chain, configure, openChain, RpcCallError } from 'blocktrace';
import 'blocktrace/vitest';
import { expect } from 'vitest';

const chain: Chain = await openChain('builtin:cancun-devnet', { log: (line: string) => console.error(line) });
const node: Chain = await openChain({ upstream: 'http://127.0.0.1:8545', timeoutMs: 2000 });
const tree = await chain.trace<{ calls?: unknown[] }>('0x00', { tracer: 'callTracer' });
const text: string = await chain.show('0x00', { abi: ['out'] });
configure({ abi: ['out'], ignore: ['blockHash'] });
await expect({ chain, tx: '0x00' }).toMatchTraceSnapshot('name');
await expect({ chain: node, block: 1n }).toMatchTraceSnapshot();
await expect({ gasUsed: 21000n }).toMatchGasSnapshot('name', { tolerance: '2%' });
const failed = new RpcCallError('eth_call', -32000, 'execution reverted');
const code: number = failed.code;
// @ts-expect-error a source is a string or { upstream }
await openChain(42);
// @ts-expect-error a tolerance is gas or a share ('2%')
await expect(1n).toMatchGasSnapshot('x', { tolerance: 'lots' });
console.log(tree.calls, text, code);
`;

interface Runner {
  readonly name: 'vitest' | 'jest' | 'bun';
  readonly testFile: string;
  readonly files: Record<string, string>;
  readonly links: readonly string[];
  /** The command, with the update flag when `update`. */
  command(update: boolean): string[];
}

const RUNNERS: Runner[] = [
  {
    name: 'vitest',
    testFile: 'trace.test.mjs',
    files: {
      'trace.test.mjs': `import { expect, test } from 'vitest';\nimport 'blocktrace/vitest';\nimport { configure, openChain } from 'blocktrace';\n\n${BODY}`,
      'anvil.test.mjs': ANVIL_TEST,
      'types.ts': TYPES,
      'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: [] }, include: ['types.ts'] }),
    },
    links: ['vitest', 'viem'],
    command: (update) => [NODE, join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...(update ? ['-u'] : [])],
  },
  {
    name: 'jest',
    testFile: 'trace.test.mjs',
    files: {
      'trace.test.mjs': JEST_BODY,
      'jest.config.mjs': "export default { testEnvironment: 'node', setupFilesAfterEnv: ['blocktrace/jest'], transform: {} };\n",
    },
    links: ['ethers'],
    command: (update) => [NODE, '--experimental-vm-modules', join(ROOT, 'node_modules/jest/bin/jest.js'), '--no-watchman', ...(update ? ['-u'] : [])],
  },
  {
    name: 'bun',
    testFile: 'trace.test.ts',
    files: { 'trace.test.ts': `import { expect, test } from 'bun:test';\nimport 'blocktrace/bun';\nimport { configure, openChain } from 'blocktrace';\n\n${BODY}` },
    links: [],
    command: (update) => [BUN, 'test', ...(update ? ['--update-snapshots'] : [])],
  },
];

const dirs: Record<string, string> = {};

beforeAll(async () => {
  const build = (name: string, variant: 'bps' | 'perMille', keepNode: boolean) => {
    mkdirSync(join(work, name));
    return buildVaultChain({ fee: 250, variant, deterministic: true, dir: join(work, name), keepNode });
  };
  const projects = Promise.all(RUNNERS.map(async (r) => {
    dirs[r.name] = join(work, r.name);
    await exampleProject(dirs[r.name]!, r.files, r.links);
  }));
  [v1, v2] = await Promise.all([build('v1', 'bps', true), build('v2', 'perMille', false), projects]);
}, SLOW);

interface Run {
  readonly code: number;
  readonly output: string;
}

async function run(command: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  // the replay cache outside the project: jest takes any .snap file under its root for one of its own
  const proc = Bun.spawn([...command], { cwd, env: { PATH, HOME: cwd, XDG_CACHE_HOME: join(work, 'cache'), NO_COLOR: '1', ...env }, stdout: 'pipe', stderr: 'pipe' });
  const killer = setTimeout(() => proc.kill(), SLOW);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  return { code, output: stdout + stderr };
}

const chainEnv = (chain: VaultChain): Record<string, string> => ({
  FIXTURE: chain.fixture,
  ABI: chain.abiDir,
  DEPOSIT: v1.txHashes.deposit1,
  BLOCK: String(v1.txBlocks.deposit1),
});

/** `blocktrace check FIXTURE DIR` through the installed package's bin, on Node. */
const check = (dir: string, chain: VaultChain, golden: string): Promise<Run> =>
  run([join(dir, 'node_modules/.bin/blocktrace'), 'check', chain.fixture, golden, '--no-cache'], dir);

const snapshotFiles = (dir: string): string[] => {
  const traces = join(dir, '__traces__');
  return existsSync(traces) ? readdirSync(traces, { recursive: true }).map(String).sort() : [];
};

describe.each(RUNNERS)('$name', (runner) => {
  test('first run writes; check passes; a changed contract fails decoded; the update flag rewrites; CI=true with a snapshot missing fails', async () => {
    const dir = dirs[runner.name]!;
    const golden = `__traces__/${runner.testFile}`;
    const anvil: Record<string, string> = runner.name === 'vitest' ? { ANVIL: v1.node!.url } : {};
    const first = await run(runner.command(false), dir, { ...chainEnv(v1), ...anvil });
    expect(first.code, first.output).toBe(0);
    const written = snapshotFiles(dir).filter((f) => f.startsWith(runner.testFile));
    expect(written).toContain(`${runner.testFile}/deposit_block.response.json`);
    expect(written).toContain(`${runner.testFile}.gas`);
    expect(written.filter((f) => f.endsWith('.response.json'))).toHaveLength(2);
    expect(readFileSync(join(dir, `${golden}.gas`), 'utf8')).toMatch(/^deposit \(gas: \d+\)\n$/);
    expect(await check(dir, v1, golden)).toEqual({ code: 0, output: '2 passed, 0 failed\n' });

    // version 2: the same transactions, deposit's fee per mille
    const changed = await run(runner.command(false), dir, chainEnv(v2));
    expect(changed.code).not.toBe(0);
    // check's report of the first snapshot that differs, decoded with the vault's ABI
    expect(changed.output).toContain(`/__traces__/${runner.testFile}/`);
    expect(changed.output).toContain(`tx ${v1.txHashes.deposit1.slice(0, 10)}… › CALL Vault.deposit(amount: 100000000000000000000)\n`);
    expect(changed.output).toMatch(/expected means: Deposited\(user: 0x[0-9a-fA-F]{40}, amount: 100000000000000000000, fee: 2500000000000000000\)\n/);
    expect(changed.output).toMatch(/got means: +Deposited\(user: 0x[0-9a-fA-F]{40}, amount: 100000000000000000000, fee: 25000000000000000000\)\n/);
    expect(changed.output).not.toContain('obsolete');
    expect(changed.output).toContain('accepts the new answer as the snapshot');
    expect((await check(dir, v2, golden)).code).toBe(1);

    const updated = await run(runner.command(true), dir, chainEnv(v2));
    expect(updated.code, updated.output).toBe(0);
    expect(await check(dir, v2, golden)).toEqual({ code: 0, output: '2 passed, 0 failed\n' });
    expect((await run(runner.command(false), dir, chainEnv(v2))).code).toBe(0);

    rmSync(join(dir, golden, 'deposit_block.request.json'));
    rmSync(join(dir, golden, 'deposit_block.response.json'));
    const ci = await run(runner.command(false), dir, { ...chainEnv(v2), CI: 'true' });
    expect(ci.code).not.toBe(0);
    expect(ci.output).toContain('is missing, and in CI a missing snapshot is not written');
    expect(existsSync(join(dir, golden, 'deposit_block.response.json'))).toBe(false);
  }, SLOW);
});

test('vitest: the transfer a test sent to anvil was traced through { upstream } and pinned', () => {
  const dir = dirs.vitest!;
  const trace = JSON.parse(readFileSync(join(dir, '__traces__/anvil.test.mjs/transfer.response.json'), 'utf8')) as { result: Record<string, string> };
  expect(trace.result).toMatchObject({ from: v1.addresses.user2.toLowerCase(), to: '0x000000000000000000000000000000000000dead', value: '0xde0b6b3a7640000', type: 'CALL', gasUsed: '0x5208' });
  expect(readFileSync(join(dir, '__traces__/anvil.test.mjs.gas'), 'utf8')).toBe('transfer (gas: 21000)\n');
});

test('tsc checks the installed package\'s types from a project that imports it (blocktrace, blocktrace/vitest)', async () => {
  const out = await run([NODE, join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], dirs.vitest!);
  expect(out).toEqual({ code: 0, output: '' });
}, SLOW);
