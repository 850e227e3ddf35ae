// The vault regression scenario on a real anvil (issue 34): a token, a vault that keeps a fee on
// deposits, a withdraw that reverts beside one that succeeds, and a CREATE from a contract. Version 1
// deploys the vault with a 250 bps fee, version 2 with 300 (same code, another constructor argument).
// buildVaultChain starts the pinned anvil on a free port, sends the transactions signed here (anvil's
// well-known dev keys, explicit nonces, gas and fees; eth_sendRawTransaction), mines each block with
// evm_mine, captures blocks 1..N with the real CLI (`blocktrace capture`), stops anvil by its PID and
// returns the fixture with the addresses, transaction hashes and block hashes.
//
// Two ways to run it, the two recipes of docs/anvil-recipes.md:
// - deterministic: `anvil --timestamp T --no-mining --order fifo` and `evm_mine` with an explicit
//   timestamp per block. Two runs give the same chain byte for byte (same block hashes). `--timestamp`
//   alone is not enough: anvil stamps a later block with T plus the wall-clock seconds since it
//   started, and its mixHash (prevRandao) follows the timestamp.
// - re-mined (deterministic: false): the same signed transactions in the same blocks, but the genesis
//   and every block stamped by the wall clock, and optionally another coinbase (anvil_setCoinbase):
//   other block hashes, timestamps, mixHashes and fee recipient, the same execution otherwise.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDeployData, encodeFunctionData, getContractAddress, keccak256, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { BUN, CLI, ROOT } from '../faces.ts';
import { ANVIL, freePort } from './anvil.ts';
import { compileVault, type VaultArtifacts, type VaultVariant } from './solc.ts';

/** Anvil's first three dev keys (mnemonic "test test … junk", m/44'/60'/0'/0/0..2): the deployer and token owner, then two users. */
const KEYS = {
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  user1: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  user2: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const satisfies Record<string, Hex>;

/** Genesis timestamp of a deterministic run; block n is stamped GENESIS_TIME + 12·n. */
export const GENESIS_TIME = 1_700_000_000;
const BLOCK_TIME = 12;
const CHAIN_ID = 31337;
/** Pinned rather than anvil's default (`latest`, Bpo1 in 1.7.1), which moves with anvil releases. */
const HARDFORK = 'prague';
const MAX_FEE = 2_000_000_000n; // anvil starts at a 1 gwei base fee, which only falls on these light blocks
const TIP = 1_000_000_000n;

export interface VaultChainOptions {
  /** The vault's fee in basis points: 250 for version 1, 300 for version 2. */
  readonly fee: number;
  /** Which Vault code (test/helpers/solc.ts): the sources' (default), or deposit's fee per mille. */
  readonly variant?: VaultVariant;
  /** true: fixed genesis timestamp and block timestamps (same chain every run); false: wall clock. */
  readonly deterministic: boolean;
  /** The fee recipient of every block (anvil_setCoinbase before block 1); anvil's default is the zero address. */
  readonly coinbase?: Address;
  /** Where the fixture goes (a new file there, `fixture.json`); a fresh temporary directory by default. */
  readonly dir?: string;
  /** Leave anvil running after the capture (VaultChain.node): the caller stops it. */
  readonly keepNode?: boolean;
  /** Bound on each step: anvil's start, each RPC call, the capture (default 60 s). */
  readonly timeoutMs?: number;
}

/** Each transaction of the scenario, by what it does. */
export type VaultTx =
  | 'deployToken' | 'deployVault'
  | 'mint1' | 'mint2' | 'approve1' | 'approve2'
  | 'deposit1' | 'deposit2'
  | 'withdrawTooMuch' | 'withdraw'
  | 'openAccount';

export interface VaultChain {
  /** The captured fixture (blocktrace-capture/v1) of blocks 1..lastBlock. */
  readonly fixture: string;
  /** Foundry-style artifacts of Token, Vault and Receipt: give it to `--abi`. */
  readonly abiDir: string;
  readonly addresses: {
    readonly deployer: Address;
    readonly user1: Address;
    readonly user2: Address;
    readonly token: Address;
    readonly vault: Address;
    /** The Receipt that openAccount creates (the vault's first CREATE). */
    readonly receipt: Address;
    readonly coinbase: Address;
  };
  readonly txHashes: Readonly<Record<VaultTx, Hex>>;
  /** The block each transaction is in. */
  readonly txBlocks: Readonly<Record<VaultTx, number>>;
  /** Block hashes 0..lastBlock as anvil mined them. */
  readonly blockHashes: readonly Hex[];
  readonly lastBlock: number;
  /** The anvil command line the chain was mined with (port included). */
  readonly anvilArgs: readonly string[];
  /** With `keepNode`: the anvil that mined it, still serving the chain. */
  readonly node?: { readonly url: string; stop(): Promise<void> };
}

interface PlannedTx {
  readonly name: VaultTx;
  readonly from: keyof typeof KEYS;
  readonly to?: Address;
  readonly data: Hex;
  readonly gas: bigint;
  /** Whether the receipt's status must be 1. */
  readonly succeeds: boolean;
}

async function rpcCall<T>(url: string, method: string, params: unknown[], timeoutMs: number): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`anvil ${method}: ${json.error.message}`);
  return json.result as T;
}

/** The scenario's blocks, each a list of transactions in the order they are sent (anvil --order fifo keeps it). */
function plan(artifacts: VaultArtifacts, fee: number, a: VaultChain['addresses']): PlannedTx[][] {
  const { Token, Vault } = artifacts.contracts;
  const token = (functionName: string, args: readonly unknown[]): Hex => encodeFunctionData({ abi: Token.abi, functionName, args } as never);
  const vault = (functionName: string, args: readonly unknown[]): Hex => encodeFunctionData({ abi: Vault.abi, functionName, args } as never);
  return [
    // 1: the token (its owner, an immutable, is the deployer)
    [{ name: 'deployToken', from: 'deployer', data: Token.bytecode, gas: 1_500_000n, succeeds: true }],
    // 2: the vault; the fee is the one constructor argument that differs between the versions
    [{ name: 'deployVault', from: 'deployer', data: encodeDeployData({ abi: Vault.abi, bytecode: Vault.bytecode, args: [a.token, BigInt(fee)] } as never), gas: 1_500_000n, succeeds: true }],
    // 3: tokens for both users, and each approves the vault (Transfer and Approval events)
    [
      { name: 'mint1', from: 'deployer', to: a.token, data: token('mint', [a.user1, parseEther('1000')]), gas: 200_000n, succeeds: true },
      { name: 'mint2', from: 'deployer', to: a.token, data: token('mint', [a.user2, parseEther('500')]), gas: 200_000n, succeeds: true },
      { name: 'approve1', from: 'user1', to: a.token, data: token('approve', [a.vault, parseEther('1000')]), gas: 100_000n, succeeds: true },
      { name: 'approve2', from: 'user2', to: a.token, data: token('approve', [a.vault, parseEther('500')]), gas: 100_000n, succeeds: true },
    ],
    // 4: two deposits: transferFrom into the vault, the fee kept, deposits[user] credited, Deposited
    [
      { name: 'deposit1', from: 'user1', to: a.vault, data: vault('deposit', [parseEther('100')]), gas: 200_000n, succeeds: true },
      { name: 'deposit2', from: 'user2', to: a.vault, data: vault('deposit', [parseEther('40')]), gas: 200_000n, succeeds: true },
    ],
    // 5: a withdraw past the deposit reverts ("Vault: insufficient deposit") beside one that succeeds
    [
      { name: 'withdrawTooMuch', from: 'user2', to: a.vault, data: vault('withdraw', [parseEther('1000')]), gas: 200_000n, succeeds: false },
      { name: 'withdraw', from: 'user1', to: a.vault, data: vault('withdraw', [parseEther('10')]), gas: 200_000n, succeeds: true },
    ],
    // 6: a CREATE from a contract: the vault makes a Receipt of user1's deposit
    [{ name: 'openAccount', from: 'user1', to: a.vault, data: vault('openAccount', []), gas: 400_000n, succeeds: true }],
  ];
}

/** Starts anvil with `args` on a free port; resolves once it answers. */
async function startAnvil(args: readonly string[], timeoutMs: number): Promise<{ url: string; args: string[]; stop: () => Promise<void> }> {
  const port = await freePort();
  const full = ['--host', '127.0.0.1', '--port', String(port), ...args];
  const proc = Bun.spawn([ANVIL, ...full], { cwd: ROOT, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const stderr = new Response(proc.stderr).text().catch(() => ''); // drained as it comes (--quiet: a line or two), so a full pipe never blocks anvil
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL');
    await proc.exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await rpcCall(url, 'eth_chainId', [], 1000);
      return { url, args: full, stop };
    } catch (error) {
      if (Date.now() > deadline || proc.exitCode !== null) {
        await stop().catch(() => undefined);
        const said = (await stderr).trim();
        throw new Error(`anvil did not start on ${url}: ${(error as Error).message}${said ? `\n${said}` : ''}`);
      }
      await Bun.sleep(20);
    }
  }
}

/** `blocktrace capture` of blocks 1..to, spawned like a user would run it, killed past `timeoutMs`. */
async function runCapture(url: string, to: number, out: string, timeoutMs: number): Promise<void> {
  const proc = Bun.spawn([BUN, CLI, 'capture', '--rpc', url, '--block', '1', '--to', String(to), '--out', out], { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`blocktrace capture exited ${proc.signalCode ?? code}${proc.signalCode === 'SIGKILL' ? ` (timed out after ${timeoutMs} ms)` : ''}:\n${stdout}${stderr}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Mines the scenario into a fresh anvil and captures it as a fixture. */
export async function buildVaultChain(options: VaultChainOptions): Promise<VaultChain> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const artifacts = await compileVault(options.variant);
  const accounts = { deployer: privateKeyToAccount(KEYS.deployer), user1: privateKeyToAccount(KEYS.user1), user2: privateKeyToAccount(KEYS.user2) };
  const token = getContractAddress({ from: accounts.deployer.address, nonce: 0n });
  const vault = getContractAddress({ from: accounts.deployer.address, nonce: 1n });
  const addresses: VaultChain['addresses'] = {
    deployer: accounts.deployer.address,
    user1: accounts.user1.address,
    user2: accounts.user2.address,
    token,
    vault,
    receipt: getContractAddress({ from: vault, nonce: 1n }), // a contract's nonce starts at 1 (EIP-161)
    coinbase: options.coinbase ?? '0x0000000000000000000000000000000000000000',
  };
  const blocks = plan(artifacts, options.fee, addresses);

  const args = ['--hardfork', HARDFORK, '--chain-id', String(CHAIN_ID), '--no-mining', '--order', 'fifo', '--accounts', '3', '--quiet'];
  if (options.deterministic) args.push('--timestamp', String(GENESIS_TIME));
  const anvil = await startAnvil(args, timeoutMs);
  const call = <T>(method: string, params: unknown[] = []): Promise<T> => rpcCall<T>(anvil.url, method, params, timeoutMs);
  try {
    if (options.coinbase !== undefined) await call('anvil_setCoinbase', [options.coinbase]);
    const nonces = { deployer: 0, user1: 0, user2: 0 };
    const txHashes: Partial<Record<VaultTx, Hex>> = {};
    const txBlocks: Partial<Record<VaultTx, number>> = {};
    for (const [i, txs] of blocks.entries()) {
      const number = i + 1;
      for (const tx of txs) {
        const raw = await accounts[tx.from].signTransaction({
          type: 'eip1559',
          chainId: CHAIN_ID,
          nonce: nonces[tx.from]++,
          ...(tx.to !== undefined ? { to: tx.to } : {}),
          data: tx.data,
          value: 0n,
          gas: tx.gas,
          maxFeePerGas: MAX_FEE,
          maxPriorityFeePerGas: TIP,
        });
        const hash = await call<Hex>('eth_sendRawTransaction', [raw]).catch((e: Error) => {
          throw new Error(`${tx.name}: ${e.message}`);
        });
        if (hash !== keccak256(raw)) throw new Error(`anvil gave ${hash} for ${tx.name}, expected ${keccak256(raw)}`);
        txHashes[tx.name] = hash;
        txBlocks[tx.name] = number;
      }
      await call('evm_mine', options.deterministic ? [GENESIS_TIME + BLOCK_TIME * number] : []);
      const mined = await call<{ number: Hex; transactions: Hex[] }>('eth_getBlockByNumber', ['latest', false]);
      const want = txs.map((tx) => txHashes[tx.name]!);
      if (Number(mined.number) !== number || mined.transactions.join() !== want.join()) {
        throw new Error(`block ${number}: anvil mined ${mined.transactions.length} txs (${mined.transactions.join(', ')}), expected ${want.join(', ')}`);
      }
      for (const tx of txs) {
        const receipt = await call<{ status: Hex; contractAddress: Address | null }>('eth_getTransactionReceipt', [txHashes[tx.name]]);
        if ((receipt.status === '0x1') !== tx.succeeds) throw new Error(`${tx.name}: status ${receipt.status}, expected ${tx.succeeds ? 'success' : 'a revert'}`);
      }
    }
    const lastBlock = blocks.length;
    const blockHashes: Hex[] = [];
    for (let n = 0; n <= lastBlock; n++) blockHashes.push((await call<{ hash: Hex }>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])).hash);
    const code = await call<Hex>('eth_getCode', [addresses.receipt, 'latest']);
    if (code === '0x') throw new Error(`no Receipt at ${addresses.receipt} after openAccount`);

    const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'blocktrace-vault-'));
    const fixture = join(dir, 'fixture.json');
    await runCapture(anvil.url, lastBlock, fixture, timeoutMs);
    return {
      fixture,
      abiDir: artifacts.outDir,
      addresses,
      txHashes: txHashes as Record<VaultTx, Hex>,
      txBlocks: txBlocks as Record<VaultTx, number>,
      blockHashes,
      lastBlock,
      anvilArgs: anvil.args,
      ...(options.keepNode === true ? { node: { url: anvil.url, stop: () => anvil.stop() } } : {}),
    };
  } catch (err) {
    if (options.keepNode === true) await anvil.stop();
    throw err;
  } finally {
    if (options.keepNode !== true) await anvil.stop();
  }
}

const request = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

export interface VaultRequestOptions {
  /** Also eth_getBlockByNumber (without transactions) of every block: the header members a re-mined chain changes. */
  readonly blocks?: boolean;
}

/**
 * The requests `record` answers for the scenario, one JSON text per line: for every block 1..last,
 * debug_traceBlockByNumber with callTracer (withLog) and with prestateTracer (diffMode), trace_block
 * and eth_getBlockReceipts (and eth_getBlockByNumber with `blocks`); then eth_getTransactionReceipt
 * of user1's deposit.
 */
export function vaultRequests(chain: Pick<VaultChain, 'lastBlock' | 'txHashes'>, options: VaultRequestOptions = {}): string[] {
  const lines: string[] = [];
  for (let n = 1; n <= chain.lastBlock; n++) {
    const block = `0x${n.toString(16)}`;
    lines.push(
      request('debug_traceBlockByNumber', [block, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      request('debug_traceBlockByNumber', [block, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
      request('trace_block', [block]),
      request('eth_getBlockReceipts', [block]),
    );
    if (options.blocks === true) lines.push(request('eth_getBlockByNumber', [block, false]));
  }
  lines.push(request('eth_getTransactionReceipt', [chain.txHashes.deposit1]));
  return lines;
}

/** Writes vaultRequests(chain, options) to `path` (the REQUESTS file of `blocktrace record`); returns `path`. */
export function writeVaultRequests(chain: Pick<VaultChain, 'lastBlock' | 'txHashes'>, path: string, options: VaultRequestOptions = {}): string {
  writeFileSync(path, `${vaultRequests(chain, options).join('\n')}\n`);
  return path;
}
