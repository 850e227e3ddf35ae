// Nodes that run a chosen fork, on 127.0.0.1, each stopped by its PID: a Hardhat 2 node (the pinned
// hardhat devDependency, run by this machine's Node from a temporary project whose hardhat.config.js
// names the hardfork and whose node_modules is the repository's) and the pinned anvil with the
// arguments given, on a port given (a restart on the same port) or a free one.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, freePort, spawnChild } from '../../bench/procs.ts';
import { ROOT } from '../faces.ts';
import { ANVIL, rpc } from './anvil.ts';

export interface ForkNode {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Kills this node (by its PID) and waits for it to exit. */
  stop(): Promise<void>;
}

/** `hardhat node` with chain id 31337 and `hardfork` (Hardhat's default when undefined). */
export async function startHardhatNode(hardfork: string | undefined, timeoutMs = 60_000): Promise<ForkNode> {
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-hardhat-'));
  const network = hardfork === undefined ? { chainId: 31337 } : { chainId: 31337, hardfork };
  writeFileSync(join(dir, 'hardhat.config.js'), `module.exports = ${JSON.stringify({ networks: { hardhat: network } })};\n`);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const port = await freePort();
  const child = spawnChild('hardhat', ['node', 'node_modules/hardhat/internal/cli/cli.js', 'node', '--hostname', '127.0.0.1', '--port', String(port)], dir);
  return ready(child, port, timeoutMs);
}

/** anvil with `args` (its defaults otherwise) on `port`, or a free one. */
export async function startAnvilNode(args: readonly string[], port?: number, timeoutMs = 30_000): Promise<ForkNode> {
  const at = port ?? (await freePort());
  const child = spawnChild('anvil', [ANVIL, '--host', '127.0.0.1', '--port', String(at), ...args], tmpdir());
  return ready(child, at, timeoutMs);
}

async function ready(child: Child, port: number, timeoutMs: number): Promise<ForkNode> {
  const url = `http://127.0.0.1:${port}`;
  const node = { url, port, pid: child.pid, stop: () => child.stop(0) };
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await rpc(url, 'eth_chainId');
      return node;
    } catch (error) {
      if (Date.now() > until || (await Promise.race([child.exited.then(() => true), Bun.sleep(100).then(() => false)]))) {
        await node.stop();
        throw new Error(`${child.name} did not answer on ${url}: ${(error as Error).message}\n${child.output().slice(-2000)}`);
      }
    }
  }
}
