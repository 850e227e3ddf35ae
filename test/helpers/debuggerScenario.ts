// The source-level debugger's scenario (golden/debugger/README.md): builds golden/debugger/src with
// real forge (foundry/out with build-info, foundry/out-no-build-info without), real Hardhat 2
// (hardhat/artifacts) and plain solc-js standard JSON (solc/input.json, output.json); deploys the
// forge-built contracts on a deterministic anvil (Ledger linked at its address), sends the
// scenario's transactions, checks each one's status, revert data and the deployed code against the
// artifacts, and captures blocks 1..N with `blocktrace capture` (fixture.json). Writes
// transactions.json (name → hash, block, status, what it exercises, where it fails) and
// contracts.json (name → address, artifact, compiler).
//
//   npm install --no-save --prefix /tmp/forge @foundry-rs/forge@1.7.1    # once; or FORGE=/path/to/forge
//   node_modules/.bin/bun test/helpers/debuggerScenario.ts
//   node_modules/.bin/bun test/helpers/debuggerScenario.ts --bench bench/fixtures/debugger-bench.json   # mineBenchChain only
//
// Both compilers are solc-js (solc 0.8.30 and the alias solc-0.8.24): forge runs them through
// solcjsWrapper.ts, placed as "installed" versions in a temporary svm directory (HOME), so that one
// `forge build --offline` picks each file's version from its pragma; Hardhat gets them from
// hardhat.config.cjs. Every process started here has a timeout and is stopped by its PID.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  encodeDeployData,
  encodeErrorResult,
  encodeFunctionData,
  getContractAddress,
  keccak256,
  parseAbi,
  parseEther,
  toHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem';
import { type LocalAccount, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { freePort } from '../../bench/procs.ts';
import { BUN, CLI, ROOT } from '../faces.ts';
import { ANVIL } from './anvil.ts';
import { SOLCJS_PACKAGES } from './solcjsWrapper.ts';

export const DEBUGGER_DIR = join(ROOT, 'golden/debugger');
const WRAPPER = join(import.meta.dir, 'solcjsWrapper.ts');
const FORGE = process.env['FORGE'] ?? '/tmp/forge/node_modules/@foundry-rs/forge-linux-amd64/bin/forge';
const HARDHAT = join(ROOT, 'node_modules/.bin/hardhat');
const STEP_TIMEOUT_MS = 300_000;

/** Anvil's first three dev keys (mnemonic "test test … junk"), as test/helpers/vaultChain.ts uses them. */
const KEYS = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  user1: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  user2: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const satisfies Record<string, Hex>;
type Sender = keyof typeof KEYS;

const GENESIS_TIME = 1_700_000_000;
const BLOCK_TIME = 12;
const CHAIN_ID = 31337;
const HARDFORK = 'prague';
const MAX_FEE = 2_000_000_000n;
const TIP = 1_000_000_000n;
const FEE_BPS = 250n;
const LIMIT = parseEther('1');

// ---------------------------------------------------------------------------------------------
// Processes

/** Runs `cmd` to its end (SIGKILL by PID past `timeoutMs`); throws with its output unless it exits 0. */
async function run(cmd: readonly string[], options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<string> {
  const timeoutMs = options.timeoutMs ?? STEP_TIMEOUT_MS;
  const proc = Bun.spawn([...cmd], { cwd: options.cwd, env: options.env ?? process.env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => process.kill(proc.pid, 'SIGKILL'), timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`${cmd.join(' ')} exited ${proc.signalCode ?? code}${proc.signalCode === 'SIGKILL' ? ` (timed out after ${timeoutMs} ms)` : ''}:\n${stdout}${stderr}`);
    return stdout + stderr;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// The three layouts

/** `forge build` twice from empty caches: foundry/out with --build-info, foundry/out-no-build-info without. */
async function buildForge(): Promise<void> {
  if (!existsSync(FORGE)) throw new Error(`no forge at ${FORGE}: npm install --no-save --prefix /tmp/forge @foundry-rs/forge@1.7.1, or set FORGE`);
  const tmp = mkdtempSync(join(tmpdir(), 'blocktrace-debugger-forge-'));
  try {
    // forge (svm) looks for an installed version VERSION at ~/.svm/VERSION/solc-VERSION
    for (const version of Object.keys(SOLCJS_PACKAGES)) {
      mkdirSync(join(tmp, '.svm', version), { recursive: true });
      writeFileSync(join(tmp, '.svm', version, `solc-${version}`), `#!/bin/sh\nexec '${BUN}' '${WRAPPER}' ${version} "$@"\n`, { mode: 0o755 });
    }
    const env = { ...process.env, HOME: tmp };
    for (const [out, extra] of [['foundry/out', ['--build-info']], ['foundry/out-no-build-info', []]] as const) {
      rmSync(join(DEBUGGER_DIR, out), { recursive: true, force: true });
      const said = await run(
        [FORGE, 'build', '--offline', '--root', DEBUGGER_DIR, '--out', out, '--cache-path', join(tmp, `cache-${out.replaceAll('/', '-')}`), ...extra, '--extra-output', 'storageLayout'],
        { cwd: DEBUGGER_DIR, env },
      );
      for (const version of Object.keys(SOLCJS_PACKAGES)) {
        if (!said.includes(`with Solc ${version}`)) throw new Error(`forge build --out ${out} did not use solc ${version}:\n${said}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `hardhat compile --force` with hardhat.config.cjs (solc-js from node_modules); its cache in a temporary directory. */
async function buildHardhat(): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'blocktrace-debugger-hardhat-'));
  try {
    rmSync(join(DEBUGGER_DIR, 'hardhat'), { recursive: true, force: true });
    await run([HARDHAT, '--config', 'hardhat.config.cjs', 'compile', '--force'], {
      cwd: DEBUGGER_DIR,
      env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true', DEBUGGER_HARDHAT_CACHE: cache },
    });
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** solc/input.json and output.json: the 0.8.30 sources through solc-js's standard JSON, the output as solc wrote it. */
async function buildSolc(): Promise<void> {
  const solc = (await import('solc')).default;
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(join(DEBUGGER_DIR, 'src')).sort()) {
    const content = readFileSync(join(DEBUGGER_DIR, 'src', file), 'utf8');
    if (content.includes('pragma solidity 0.8.30;')) sources[`src/${file}`] = { content };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: false, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: {
        '*': {
          '': ['ast'],
          '*': [
            'abi', 'metadata', 'storageLayout', 'evm.methodIdentifiers',
            'evm.bytecode.object', 'evm.bytecode.sourceMap', 'evm.bytecode.linkReferences', 'evm.bytecode.generatedSources', 'evm.bytecode.functionDebugData',
            'evm.deployedBytecode.object', 'evm.deployedBytecode.sourceMap', 'evm.deployedBytecode.linkReferences', 'evm.deployedBytecode.immutableReferences',
            'evm.deployedBytecode.generatedSources', 'evm.deployedBytecode.functionDebugData',
          ],
        },
      },
    },
  };
  const text = JSON.stringify(input, null, 2);
  const output = solc.compile(text);
  const errors = ((JSON.parse(output) as { errors?: { severity: string; formattedMessage: string }[] }).errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc ${solc.version()}:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  mkdirSync(join(DEBUGGER_DIR, 'solc'), { recursive: true });
  writeFileSync(join(DEBUGGER_DIR, 'solc/input.json'), `${text}\n`);
  writeFileSync(join(DEBUGGER_DIR, 'solc/output.json'), output);
}

// ---------------------------------------------------------------------------------------------
// Artifacts, linking, expected failures

type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;

interface ForgeArtifact {
  readonly abi: Abi;
  readonly bytecode: { object: Hex; linkReferences: LinkReferences };
  readonly deployedBytecode: { object: Hex; linkReferences: LinkReferences; immutableReferences?: Record<string, { start: number; length: number }[]> };
}

const forgeArtifact = (file: string, name: string): ForgeArtifact => JSON.parse(readFileSync(join(DEBUGGER_DIR, 'foundry/out', file, `${name}.json`), 'utf8')) as ForgeArtifact;

/** `code` with every library placeholder `__$keccak(path:Name)[0..34]$__` at its linkReferences offsets replaced by the library's address. */
function link(code: Hex, refs: LinkReferences, libraries: Record<string, Address>): Hex {
  let hex = code.slice(2);
  for (const [file, byName] of Object.entries(refs)) {
    for (const [name, places] of Object.entries(byName)) {
      const address = libraries[`${file}:${name}`];
      if (address === undefined) throw new Error(`no address for library ${file}:${name}`);
      const placeholder = `__$${keccak256(toHex(`${file}:${name}`)).slice(2, 36)}$__`;
      for (const { start, length } of places) {
        const at = hex.slice(start * 2, (start + length) * 2);
        if (at !== placeholder) throw new Error(`${file}:${name} at byte ${start}: ${at}, expected the placeholder ${placeholder}`);
        hex = hex.slice(0, start * 2) + address.slice(2).toLowerCase() + hex.slice((start + length) * 2);
      }
    }
  }
  if (hex.includes('__$')) throw new Error('a library placeholder is left after linking');
  return `0x${hex}`;
}

/** Whether `onchain` is the artifact's runtime code: libraries linked, immutables (and a library's own address at bytes 1..20) as deployed. */
function sameCode(onchain: Hex, artifact: ForgeArtifact, libraries: Record<string, Address>, self?: Address): boolean {
  let want = link(artifact.deployedBytecode.object, artifact.deployedBytecode.linkReferences, libraries).slice(2);
  const have = onchain.slice(2);
  const ranges = Object.values(artifact.deployedBytecode.immutableReferences ?? {}).flat();
  for (const { start, length } of ranges) want = want.slice(0, start * 2) + have.slice(start * 2, (start + length) * 2) + want.slice((start + length) * 2);
  // a library's runtime code starts with PUSH20 0…0, which its constructor fills with its own address (the call guard)
  if (self !== undefined) want = `73${self.slice(2).toLowerCase()}${want.slice(42)}`;
  return want === have;
}

interface ExpectedFailure {
  /** Source path as the compilers name it (build-info `source_id_to_path`, the sources' keys). */
  readonly file: string;
  readonly line: number;
  /** The whole line, trimmed. */
  readonly text: string;
  /**
   * The failing expression and its range in the file in UTF-8 bytes (as source maps count; Vault.sol
   * has multi-byte characters before it): the source map entry of the REVERT, or for the Panic, whose
   * REVERT is in generated code (#utility.yul), of the last step in a source file.
   */
  readonly expression: string;
  readonly start: number;
  readonly length: number;
  /** The revert, decoded. */
  readonly error: string;
  /** The transaction's return data (checked against anvil's callTracer output). */
  readonly revertData: Hex;
  /** The source-level stack at the failure, outermost first (from the sources: function, then the internal calls). */
  readonly internalStack: readonly string[];
}

interface PlannedTx {
  readonly name: string;
  readonly from: Sender;
  readonly to?: Address;
  readonly data: Hex;
  readonly value?: bigint;
  readonly gas: bigint;
  readonly exercises: string;
  readonly fails?: ExpectedFailure;
}

const ERROR_ABI = parseAbi(['error Error(string message)', 'error Panic(uint256 code)']);

/** The failure at the one occurrence of `expression` in `file` (under golden/debugger). */
function failure(file: string, expression: string, error: string, revertData: Hex, internalStack: readonly string[]): ExpectedFailure {
  const bytes = readFileSync(join(DEBUGGER_DIR, file));
  const start = bytes.indexOf(expression);
  if (start < 0 || bytes.lastIndexOf(expression) !== start) throw new Error(`${file}: "${expression}" is not there exactly once`);
  const before = bytes.subarray(0, start).toString('utf8').split('\n');
  const line = before.length;
  const text = bytes.toString('utf8').split('\n')[line - 1]!.trim();
  return { file, line, text, expression, start, length: Buffer.byteLength(expression), error, revertData, internalStack };
}

// ---------------------------------------------------------------------------------------------
// The chain

interface Addresses {
  readonly deployer: Address;
  readonly user1: Address;
  readonly user2: Address;
  readonly ledger: Address;
  readonly vault: Address;
  readonly counter: Address;
  readonly receipt: Address;
}

function plan(a: Addresses, libraries: Record<string, Address>): PlannedTx[][] {
  const Ledger = forgeArtifact('Ledger.sol', 'Ledger');
  const Vault = forgeArtifact('Vault.sol', 'Vault');
  const Counter = forgeArtifact('Counter.sol', 'Counter');
  const vault = (functionName: string, args: readonly unknown[] = []): Hex => encodeFunctionData({ abi: Vault.abi, functionName, args } as never);
  const counter = (functionName: string, args: readonly unknown[]): Hex => encodeFunctionData({ abi: Counter.abi, functionName, args } as never);
  const vaultCreation = link(Vault.bytecode.object, Vault.bytecode.linkReferences, libraries);
  const fee = (amount: bigint): bigint => (amount * FEE_BPS) / 10_000n;
  const overflow = 2n ** 255n;
  return [
    [{ name: 'deployLedger', from: 'deployer', data: Ledger.bytecode.object, gas: 1_000_000n, exercises: 'deploys the Ledger library (an external function; linked into Vault at this address)' }],
    [
      {
        name: 'deployVault', from: 'deployer', gas: 3_000_000n,
        data: encodeDeployData({ abi: Vault.abi, bytecode: vaultCreation, args: [FEE_BPS, LIMIT] } as never),
        exercises: 'constructor with arguments (feeBps 250, limit 1 ether); immutables owner and feeBps; bytecode linked to Ledger',
      },
      { name: 'deployCounter', from: 'deployer', data: Counter.bytecode.object, gas: 1_000_000n, exercises: 'deploys Counter, compiled by solc 0.8.24' },
    ],
    [
      {
        name: 'deposit', from: 'user1', to: a.vault, value: parseEther('2'), data: vault('deposit'), gas: 300_000n,
        exercises: 'library DELEGATECALL: Vault.deposit → Ledger.record (external library function writing Vault storage through a storage pointer); mapping write; event',
      },
      { name: 'deposit2', from: 'user2', to: a.vault, value: parseEther('0.5'), data: vault('deposit'), gas: 300_000n, exercises: 'the same DELEGATECALL, a second depositor (slots already written)' },
    ],
    [
      {
        name: 'withdraw', from: 'user1', to: a.vault, data: vault('withdraw', [parseEther('0.1')]), gas: 300_000n,
        exercises: 'successful deep internal calls: modifier nonReentrant → withdraw → _checkLimit → _fee → Math.mulDiv, then _debit; immutable feeBps read; storage reads/writes; CALL with value to the sender; event',
      },
    ],
    [
      {
        name: 'withdrawOverLimit', from: 'user1', to: a.vault, data: vault('withdraw', [parseEther('2')]), gas: 300_000n,
        exercises: 'require(cond, "message") failing inside an internal function (_checkLimit)',
        fails: failure('src/Vault.sol', 'require(amount + fee <= limit, "Vault: over limit")', 'Error("Vault: over limit")',
          encodeErrorResult({ abi: ERROR_ABI, errorName: 'Error', args: ['Vault: over limit'] }), ['Vault.withdraw', 'Vault._checkLimit']),
      },
      {
        name: 'withdrawInsufficient', from: 'user2', to: a.vault, data: vault('withdraw', [parseEther('0.9')]), gas: 300_000n,
        exercises: 'custom error revert Insufficient(available, required) inside an internal function (_debit)',
        fails: failure('src/Vault.sol', 'Insufficient(available, amount)', `Insufficient(${parseEther('0.5')}, ${parseEther('0.9') + fee(parseEther('0.9'))})`,
          encodeErrorResult({ abi: Vault.abi, errorName: 'Insufficient', args: [parseEther('0.5'), parseEther('0.9') + fee(parseEther('0.9'))] } as never), ['Vault.withdraw', 'Vault._debit']),
      },
      {
        name: 'withdrawOverflow', from: 'user1', to: a.vault, data: vault('withdraw', [overflow]), gas: 300_000n,
        exercises: 'Panic(0x11): checked multiplication overflowing in an internal library function four calls deep',
        fails: failure('src/Math.sol', 'a * b', 'Panic(0x11)',
          encodeErrorResult({ abi: ERROR_ABI, errorName: 'Panic', args: [0x11n] }), ['Vault.withdraw', 'Vault._checkLimit', 'Vault._fee', 'Math.mulDiv']),
      },
    ],
    [
      {
        name: 'openReceipt', from: 'user1', to: a.vault, data: vault('openReceipt'), gas: 600_000n,
        exercises: 'CREATE from a contract: new Receipt(msg.sender, balance) with constructor arguments; Receipt\'s immutable and events',
      },
    ],
    [
      { name: 'counterHit', from: 'user2', to: a.counter, data: counter('hit', [5n]), gas: 200_000n, exercises: 'a transaction into the solc 0.8.24 contract: hit → _bump (internal call), mapping and storage writes, event' },
      { name: 'poke', from: 'user1', to: a.vault, data: vault('poke', [a.counter, 3n]), gas: 200_000n, exercises: 'a CALL from the 0.8.30 Vault into the 0.8.24 Counter (two compilers, two build-infos, in one transaction)' },
    ],
    [
      {
        name: 'accrue', from: 'user2', to: a.vault, data: vault('accrue', [1000n]), gas: 2_000_000n,
        exercises: 'a loop of 1,000 iterations, each an internal call to Math.min; storage read before and write after; event',
      },
    ],
  ];
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(60_000),
  });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`anvil ${method}: ${json.error.message}`);
  return json.result as T;
}

async function startAnvil(args: readonly string[]): Promise<{ url: string; args: string[]; stop: () => Promise<void> }> {
  const port = await freePort();
  const full = ['--host', '127.0.0.1', '--port', String(port), ...args];
  const proc = Bun.spawn([ANVIL, ...full], { cwd: ROOT, stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL');
    await proc.exited;
  };
  for (const deadline = Date.now() + 30_000; ; await Bun.sleep(20)) {
    try {
      await rpc(url, 'eth_chainId');
      return { url, args: full, stop };
    } catch (error) {
      if (Date.now() > deadline || proc.exitCode !== null) {
        await stop();
        throw new Error(`anvil did not start on ${url}: ${(error as Error).message}`);
      }
    }
  }
}

/** Signs `tx` with `account` at `nonce` (EIP-1559, its explicit gas) and sends it; checks the hash anvil gives back. */
async function sendSigned(url: string, account: LocalAccount, nonce: number, tx: Pick<PlannedTx, 'name' | 'to' | 'data' | 'value' | 'gas'>): Promise<Hex> {
  const raw = await account.signTransaction!({
    type: 'eip1559', chainId: CHAIN_ID, nonce,
    ...(tx.to !== undefined ? { to: tx.to } : {}),
    data: tx.data, value: tx.value ?? 0n, gas: tx.gas, maxFeePerGas: MAX_FEE, maxPriorityFeePerGas: TIP,
  });
  const hash = await rpc<Hex>(url, 'eth_sendRawTransaction', [raw]).catch((e: Error) => {
    throw new Error(`${tx.name}: ${e.message}`);
  });
  if (hash !== keccak256(raw)) throw new Error(`anvil gave ${hash} for ${tx.name}, expected ${keccak256(raw)}`);
  return hash;
}

/** Mines block `number` at its timestamp and checks that it holds exactly `hashes`, in that order. */
async function mineBlock(url: string, number: number, hashes: readonly Hex[]): Promise<void> {
  await rpc(url, 'evm_mine', [GENESIS_TIME + BLOCK_TIME * number]);
  const mined = await rpc<{ number: Hex; transactions: Hex[] }>(url, 'eth_getBlockByNumber', ['latest', false]);
  if (Number(mined.number) !== number || mined.transactions.join() !== hashes.join()) throw new Error(`block ${number}: anvil mined ${mined.transactions.join(', ')}, expected ${hashes.join(', ')}`);
}

interface TxRecord {
  readonly hash: Hex;
  readonly block: number;
  readonly index: number;
  readonly status: 'success' | 'reverted';
  readonly from: Address;
  readonly to: Address | null;
  readonly contractAddress?: Address;
  readonly exercises: string;
  readonly fails?: ExpectedFailure;
}

async function mineChain(): Promise<void> {
  const accounts = { deployer: privateKeyToAccount(KEYS.deployer), user1: privateKeyToAccount(KEYS.user1), user2: privateKeyToAccount(KEYS.user2) };
  const ledger = getContractAddress({ from: accounts.deployer.address, nonce: 0n });
  const vault = getContractAddress({ from: accounts.deployer.address, nonce: 1n });
  const a: Addresses = {
    deployer: accounts.deployer.address,
    user1: accounts.user1.address,
    user2: accounts.user2.address,
    ledger,
    vault,
    counter: getContractAddress({ from: accounts.deployer.address, nonce: 2n }),
    receipt: getContractAddress({ from: vault, nonce: 1n }), // a contract's nonce starts at 1 (EIP-161)
  };
  const libraries = { 'src/Ledger.sol:Ledger': ledger };
  const blocks = plan(a, libraries);

  const anvil = await startAnvil(['--hardfork', HARDFORK, '--chain-id', String(CHAIN_ID), '--no-mining', '--order', 'fifo', '--accounts', '3', '--timestamp', String(GENESIS_TIME), '--quiet']);
  try {
    const nonces: Record<Sender, number> = { deployer: 0, user1: 0, user2: 0 };
    const records: Record<string, TxRecord> = {};
    for (const [i, txs] of blocks.entries()) {
      const number = i + 1;
      const hashes: Hex[] = [];
      for (const tx of txs) hashes.push(await sendSigned(anvil.url, accounts[tx.from], nonces[tx.from]++, tx));
      await mineBlock(anvil.url, number, hashes);
      for (const [index, tx] of txs.entries()) {
        const hash = hashes[index]!;
        const receipt = await rpc<{ status: Hex; contractAddress: Address | null; to: Address | null }>(anvil.url, 'eth_getTransactionReceipt', [hash]);
        const ok = receipt.status === '0x1';
        if (ok !== (tx.fails === undefined)) throw new Error(`${tx.name}: status ${receipt.status}, expected ${tx.fails === undefined ? 'success' : 'a revert'}`);
        if (tx.fails !== undefined) {
          const frame = await rpc<{ output?: Hex }>(anvil.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
          if (frame.output !== tx.fails.revertData) throw new Error(`${tx.name}: reverted with ${frame.output}, expected ${tx.fails.revertData} (${tx.fails.error})`);
        }
        records[tx.name] = {
          hash, block: number, index, status: ok ? 'success' : 'reverted', from: a[tx.from], to: tx.to ?? null,
          ...(receipt.contractAddress ? { contractAddress: receipt.contractAddress } : {}),
          exercises: tx.exercises, ...(tx.fails ? { fails: tx.fails } : {}),
        };
      }
    }

    // the deployed code is the forge artifacts' (linked, immutables as the constructors set them)
    const deployed: [string, string, string, Address, boolean][] = [
      ['Ledger', 'Ledger.sol', '0.8.30', a.ledger, true],
      ['Vault', 'Vault.sol', '0.8.30', a.vault, false],
      ['Counter', 'Counter.sol', '0.8.24', a.counter, false],
      ['Receipt', 'Receipt.sol', '0.8.30', a.receipt, false],
    ];
    const contracts: Record<string, unknown> = {};
    for (const [name, file, solc, address, isLibrary] of deployed) {
      const code = await rpc<Hex>(anvil.url, 'eth_getCode', [address, 'latest']);
      if (!sameCode(code, forgeArtifact(file, name), libraries, isLibrary ? address : undefined)) throw new Error(`${name} at ${address}: the deployed code is not foundry/out/${file}/${name}.json's`);
      contracts[name] = { address, source: `src/${file}`, artifact: `foundry/out/${file}/${name}.json`, hardhatArtifact: `hardhat/artifacts/src/${file}/${name}.json`, solc };
    }

    const last = blocks.length;
    // capture never overwrites a file: it writes a fresh one, which then replaces the last run's
    const captured = join(mkdtempSync(join(tmpdir(), 'blocktrace-debugger-capture-')), 'fixture.json');
    await run([BUN, CLI, 'capture', '--rpc', anvil.url, '--block', '1', '--to', String(last), '--out', captured], { cwd: ROOT, timeoutMs: 120_000 });
    copyFileSync(captured, join(DEBUGGER_DIR, 'fixture.json'));
    rmSync(dirname(captured), { recursive: true, force: true });
    writeFileSync(join(DEBUGGER_DIR, 'transactions.json'), `${JSON.stringify(records, null, 2)}\n`);
    writeFileSync(join(DEBUGGER_DIR, 'contracts.json'), `${JSON.stringify({ accounts: { deployer: a.deployer, user1: a.user1, user2: a.user2 }, contracts, libraries, anvil: anvil.args.slice(4) }, null, 2)}\n`);
  } finally {
    await anvil.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The debugger's bench chain (bench/fixtures/README.md, bench/debugger.ts)

/** Anvil's dev accounts come from this mnemonic (m/44'/60'/0'/0/i); the first three are KEYS. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const BENCH_SENDERS = 20;
const BENCH_TXS = 200;
/** accrue(ROUNDS) of the loop transaction: some 100 steps a round, so about 1,000,000 steps. */
const LOOP_ROUNDS = 10_000n;
/** accrue(HEAVY_ROUNDS): the heaviest of the 200 (some 50,000 steps; the others take a few hundred). */
const HEAVY_ROUNDS = 500n;

export interface BenchTransactions {
  /** The heaviest (most gas) of block 3's 200 transactions: accrue(500). */
  readonly heaviest: { hash: Hex; block: number; index: number; call: string; gasUsed: number };
  /** Block 4's only transaction: accrue(10000), a loop of some 1,000,000 steps. */
  readonly loop: { hash: Hex; block: number; index: number; call: string; gasUsed: number };
}

/**
 * The debugger's bench chain: Ledger, Vault and Counter deployed as the scenario does (blocks 1 and
 * 2, the same addresses), then block 3 of 200 transactions from 20 of anvil's dev accounts (deposits,
 * withdraws, pokes, Counter hits and one accrue(500), the heaviest), and block 4 holding accrue(10000).
 * Captures blocks 1..4 to `out` and names the two transactions in OUT.transactions.json beside it.
 */
export async function mineBenchChain(out: string): Promise<BenchTransactions> {
  const senders = Array.from({ length: BENCH_SENDERS }, (_, i) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i }));
  for (const [i, key] of [KEYS.deployer, KEYS.user1, KEYS.user2].entries()) {
    if (senders[i]!.address !== privateKeyToAccount(key).address) throw new Error(`dev account ${i} of the mnemonic is not KEYS's`);
  }
  const deployer = senders[0]!;
  const ledger = getContractAddress({ from: deployer.address, nonce: 0n });
  const vault = getContractAddress({ from: deployer.address, nonce: 1n });
  const a: Addresses = {
    deployer: deployer.address,
    user1: senders[1]!.address,
    user2: senders[2]!.address,
    ledger,
    vault,
    counter: getContractAddress({ from: deployer.address, nonce: 2n }),
    receipt: getContractAddress({ from: vault, nonce: 1n }),
  };
  const libraries = { 'src/Ledger.sol:Ledger': ledger };
  // the scenario's blocks 1 and 2: Ledger, then Vault (linked) and Counter, all from the deployer
  const deployments = plan(a, libraries).slice(0, 2);
  const Vault = forgeArtifact('Vault.sol', 'Vault');
  const Counter = forgeArtifact('Counter.sol', 'Counter');
  const vaultCall = (functionName: string, args: readonly unknown[] = []): Hex => encodeFunctionData({ abi: Vault.abi, functionName, args } as never);
  const counterCall = (functionName: string, args: readonly unknown[]): Hex => encodeFunctionData({ abi: Counter.abi, functionName, args } as never);

  type BenchTx = Pick<PlannedTx, 'name' | 'to' | 'data' | 'value' | 'gas'> & { readonly sender: number };
  // round r of 10 gives each of the 20 senders one transaction of ROUND_KINDS[r] (a deposit before any withdraw)
  const ROUND_KINDS = ['deposit', 'poke', 'withdraw', 'hit', 'deposit', 'withdraw', 'poke', 'deposit', 'hit', 'withdraw'] as const;
  const HEAVY_AT = 110;
  const block3: BenchTx[] = [];
  for (let t = 0; t < BENCH_TXS; t++) {
    const sender = t % BENCH_SENDERS;
    const kind = t === HEAVY_AT ? 'accrue' : ROUND_KINDS[Math.floor(t / BENCH_SENDERS)]!;
    const name = `${kind}#${t}`;
    switch (kind) {
      case 'deposit': block3.push({ name, sender, to: vault, value: parseEther('0.05'), data: vaultCall('deposit'), gas: 200_000n }); break;
      case 'withdraw': block3.push({ name, sender, to: vault, data: vaultCall('withdraw', [parseEther('0.01')]), gas: 200_000n }); break;
      case 'poke': block3.push({ name, sender, to: vault, data: vaultCall('poke', [a.counter, BigInt(sender + 1)]), gas: 150_000n }); break;
      case 'hit': block3.push({ name, sender, to: a.counter, data: counterCall('hit', [BigInt(t)]), gas: 150_000n }); break;
      case 'accrue': block3.push({ name: `accrue(${HEAVY_ROUNDS})`, sender, to: vault, data: vaultCall('accrue', [HEAVY_ROUNDS]), gas: 1_000_000n }); break;
    }
  }
  const loop: BenchTx = { name: `accrue(${LOOP_ROUNDS})`, sender: 1, to: vault, data: vaultCall('accrue', [LOOP_ROUNDS]), gas: 5_000_000n };

  const anvil = await startAnvil(['--hardfork', HARDFORK, '--chain-id', String(CHAIN_ID), '--no-mining', '--order', 'fifo', '--accounts', String(BENCH_SENDERS), '--timestamp', String(GENESIS_TIME), '--quiet']);
  try {
    const nonces = senders.map(() => 0);
    const blocks: BenchTx[][] = [...deployments.map((txs) => txs.map((tx) => ({ ...tx, sender: 0 }))), block3, [loop]];
    const hashesOf: Hex[][] = [];
    for (const [i, txs] of blocks.entries()) {
      const hashes: Hex[] = [];
      for (const tx of txs) hashes.push(await sendSigned(anvil.url, senders[tx.sender]!, nonces[tx.sender]!++, tx));
      await mineBlock(anvil.url, i + 1, hashes);
      hashesOf.push(hashes);
    }
    const gasUsed: number[][] = [];
    for (const [i, hashes] of hashesOf.entries()) {
      gasUsed.push([]);
      for (const [index, hash] of hashes.entries()) {
        const receipt = await rpc<{ status: Hex; gasUsed: Hex }>(anvil.url, 'eth_getTransactionReceipt', [hash]);
        if (receipt.status !== '0x1') throw new Error(`${blocks[i]![index]!.name} (block ${i + 1}): status ${receipt.status}, expected success`);
        gasUsed[i]!.push(Number(receipt.gasUsed));
      }
    }
    const heavy = gasUsed[2]!;
    if (heavy.some((gas, index) => index !== HEAVY_AT && gas >= heavy[HEAVY_AT]!)) throw new Error(`accrue(${HEAVY_ROUNDS}) is not the heaviest of block 3`);
    for (const [name, file, address, isLibrary] of [['Ledger', 'Ledger.sol', ledger, true], ['Vault', 'Vault.sol', vault, false], ['Counter', 'Counter.sol', a.counter, false]] as const) {
      const code = await rpc<Hex>(anvil.url, 'eth_getCode', [address, 'latest']);
      if (!sameCode(code, forgeArtifact(file, name), libraries, isLibrary ? address : undefined)) throw new Error(`${name} at ${address}: the deployed code is not foundry/out/${file}/${name}.json's`);
    }

    const captured = join(mkdtempSync(join(tmpdir(), 'blocktrace-debugger-bench-')), 'fixture.json');
    await run([BUN, CLI, 'capture', '--rpc', anvil.url, '--block', '1', '--to', String(blocks.length), '--out', captured], { cwd: ROOT, timeoutMs: 300_000 });
    copyFileSync(captured, out);
    rmSync(dirname(captured), { recursive: true, force: true });
    const named: BenchTransactions = {
      heaviest: { hash: hashesOf[2]![HEAVY_AT]!, block: 3, index: HEAVY_AT, call: `accrue(${HEAVY_ROUNDS})`, gasUsed: heavy[HEAVY_AT]! },
      loop: { hash: hashesOf[3]![0]!, block: 4, index: 0, call: `accrue(${LOOP_ROUNDS})`, gasUsed: gasUsed[3]![0]! },
    };
    writeFileSync(out.replace(/\.json$/, '.transactions.json'), `${JSON.stringify({ ...named, block3: { transactions: heavy.length, gasUsed: heavy.reduce((x, y) => x + y, 0) }, anvil: anvil.args.slice(4) }, null, 2)}\n`);
    return named;
  } finally {
    await anvil.stop();
  }
}

if (import.meta.main && process.argv[2] === '--bench') {
  // node_modules/.bin/bun test/helpers/debuggerScenario.ts --bench bench/fixtures/debugger-bench.json
  const out = process.argv[3];
  if (out === undefined || !out.endsWith('.json')) throw new Error('usage: debuggerScenario.ts --bench OUT.json');
  const named = await mineBenchChain(out);
  process.stdout.write(`wrote ${out} and its .transactions.json: heaviest ${named.heaviest.hash} (${named.heaviest.gasUsed} gas), loop ${named.loop.hash} (${named.loop.gasUsed} gas)\n`);
} else if (import.meta.main) {
  await buildForge();
  await buildHardhat();
  await buildSolc();
  await mineChain();
  process.stdout.write(`wrote ${DEBUGGER_DIR}: foundry/, hardhat/, solc/, fixture.json, transactions.json, contracts.json\n`);
}
