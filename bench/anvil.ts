// Anvil on the fixture's chain: started with the args the corpus recorded (on a free loopback port),
// then fed block by block the way the generator mined it (docs/fixtures.md, the anvil corpus fixtures):
// evm_setNextBlockTimestamp, every raw transaction with eth_sendRawTransaction, evm_mine.
// Its block hashes are then checked against the fixture, so both servers hold the same chain.
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { type Child, spawnChild } from './procs.ts';
import { call, waitReady } from './rpc.ts';

export interface AnvilFixture {
  readonly anvil: { readonly version: string; readonly args: readonly string[] };
  readonly genesisBlock: FixtureBlock;
  readonly blocks: readonly FixtureBlock[];
}

interface FixtureBlock {
  readonly number: string;
  readonly hash: string;
  readonly rawTransactions: readonly string[];
  readonly block: { readonly timestamp: string };
}

export interface AnvilLoad {
  /** Wall time to send and mine every block. */
  readonly totalMs: number;
  readonly txs: number;
  /** Per block: time of its eth_sendRawTransaction calls and of its evm_mine. */
  readonly blocks: readonly { readonly number: string; readonly txs: number; readonly sendMs: number; readonly mineMs: number }[];
}

export function anvilBinary(): string {
  const pkg = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json');
  return join(dirname(pkg), 'bin', 'anvil');
}

/** The recorded args with `--init` made absolute and the address forced to 127.0.0.1:`port`. */
export function anvilArgs(fixturePath: string, recorded: readonly string[], port: number): string[] {
  const args = [...recorded];
  const set = (flag: string, value: string): void => {
    const at = args.indexOf(flag);
    if (at >= 0) args[at + 1] = value;
    else args.push(flag, value);
  };
  const init = args.indexOf('--init');
  if (init >= 0) args[init + 1] = resolve(dirname(fixturePath), args[init + 1]!);
  set('--host', '127.0.0.1');
  set('--port', String(port));
  return args;
}

export async function startAnvil(fixturePath: string, fixture: AnvilFixture, port: number, cwd: string): Promise<{ child: Child; url: string }> {
  const child = spawnChild('anvil', [anvilBinary(), ...anvilArgs(fixturePath, fixture.anvil.args, port)], cwd);
  const url = `http://127.0.0.1:${port}/`;
  let exited = false;
  void child.exited.then(() => (exited = true));
  try {
    await waitReady(url, 30_000, () => exited);
  } catch (error) {
    await child.stop();
    throw new Error(`${(error as Error).message}\n${child.output().split('\n').slice(-10).join('\n')}`);
  }
  return { child, url };
}

export async function loadAnvilChain(url: string, fixture: AnvilFixture): Promise<AnvilLoad> {
  const blocks: { number: string; txs: number; sendMs: number; mineMs: number }[] = [];
  const start = performance.now();
  let txs = 0;
  for (const entry of fixture.blocks) {
    await call(url, 'evm_setNextBlockTimestamp', [Number(BigInt(entry.block.timestamp))]);
    const sendStart = performance.now();
    for (const raw of entry.rawTransactions) await call(url, 'eth_sendRawTransaction', [raw]);
    const mineStart = performance.now();
    await call(url, 'evm_mine');
    const mined = performance.now();
    blocks.push({ number: entry.number, txs: entry.rawTransactions.length, sendMs: mineStart - sendStart, mineMs: mined - mineStart });
    txs += entry.rawTransactions.length;
  }
  const totalMs = performance.now() - start;
  await checkHashes(url, fixture);
  return { totalMs, txs, blocks };
}

async function checkHashes(url: string, fixture: AnvilFixture): Promise<void> {
  for (const entry of [fixture.genesisBlock, ...fixture.blocks]) {
    const got = await call<{ hash: string } | null>(url, 'eth_getBlockByNumber', [entry.number, false]);
    if (got?.hash !== entry.hash) {
      throw new Error(`anvil block ${entry.number}: hash ${got?.hash ?? 'none'}, fixture has ${entry.hash}: the chains differ`);
    }
  }
  const head = await call<string>(url, 'eth_blockNumber');
  const want = fixture.blocks[fixture.blocks.length - 1]?.number ?? '0x0';
  if (BigInt(head) !== BigInt(want)) throw new Error(`anvil head is ${head}, fixture head is ${want}`);
}
