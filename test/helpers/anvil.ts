// A real anvil (the pinned @foundry-rs/anvil-linux-amd64) on 127.0.0.1 and a free port, with an anvil
// corpus chain mined into it block by block (its fixture's `anvil.args`, docs/fixtures.md: `anvil --init genesis.json`
// with the chain's recorded args, then each block's raw transactions after evm_setNextBlockTimestamp).
import { dirname, join } from 'node:path';
import { freePort } from '../../bench/procs.ts';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const ANVIL = join(import.meta.dir, '../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');

export interface Anvil {
  readonly url: string;
  readonly pid: number;
  /** Kills this anvil (by its PID) and waits for it to exit. */
  stop(): Promise<void>;
}

export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const json = (await res.json()) as { result?: T; error?: { message: string } };
  if (json.error !== undefined) throw new Error(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** Starts anvil for the corpus fixture at `fixturePath` (its genesis and recorded args) on a free port. */
export async function startAnvil(fixturePath: string): Promise<Anvil> {
  const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-anvil-'));
  const genesisPath = join(dir, 'genesis.json');
  writeFileSync(genesisPath, JSON.stringify(fixture.genesis));
  const port = await freePort();
  const args = (fixture.anvil.args as string[]).slice();
  args[args.indexOf('--init') + 1] = genesisPath;
  args[args.indexOf('--port') + 1] = String(port);
  const proc = Bun.spawn([ANVIL, ...args], { cwd: dirname(fixturePath), stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    process.kill(proc.pid, 'SIGKILL');
    await proc.exited;
  };
  try {
    await waitForRpc(url, () => proc.exitCode !== null);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
  return { url, pid: proc.pid, stop };
}

/** Waits until a node at `url` answers eth_chainId: 10 s at most, or until `gone` says its process ended. */
export async function waitForRpc(url: string, gone: () => boolean = () => false): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await rpc(url, 'eth_chainId');
      return;
    } catch (error) {
      if (i >= 200 || gone()) throw new Error(`no node answered on ${url}: ${(error as Error).message}`);
      await Bun.sleep(50);
    }
  }
}

/** Mines every block of the corpus fixture into a fresh anvil; checks each block hash. */
export async function mineCorpusChain(url: string, fixturePath: string): Promise<void> {
  const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));
  for (const entry of fixture.blocks as { hash: string; block: { timestamp: string }; rawTransactions: string[] }[]) {
    await rpc(url, 'evm_setNextBlockTimestamp', [Number(BigInt(entry.block.timestamp))]);
    for (const raw of entry.rawTransactions) await rpc(url, 'eth_sendRawTransaction', [raw]);
    await rpc(url, 'evm_mine');
    const mined = await rpc<{ hash: string }>(url, 'eth_getBlockByNumber', ['latest', false]);
    if (mined.hash !== entry.hash) throw new Error(`anvil mined ${mined.hash}, the corpus has ${entry.hash}`);
  }
}

export { freePort };
