// Development nodes as users run them, each on 127.0.0.1 and a free port, stopped by its PID: the
// pinned anvil with its defaults (dev accounts, no mining until evm_mine), and a Hardhat 2 node (the
// pinned hardhat devDependency, run by this machine's Node from a temporary project whose
// node_modules is the repository's).
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from '../../bench/procs.ts';
import { ROOT } from '../faces.ts';
import { ANVIL, freePort, rpc } from './anvil.ts';

export interface DevNode {
  readonly url: string;
  readonly pid: number;
  /** Kills this node (by its PID) and waits for it to exit. */
  stop(): Promise<void>;
}

/** Hardhat's chain id, and the hardhat.config.js of the temporary project. */
export const HARDHAT_CHAIN_ID = 31337;
const HARDHAT_CONFIG = `module.exports = { networks: { hardhat: { chainId: ${HARDHAT_CHAIN_ID} } } };\n`;

/** anvil with its defaults but mining only on evm_mine (so one block can hold several transactions). */
export async function startDevAnvil(timeoutMs = 30_000): Promise<DevNode> {
  const port = await freePort();
  const child = spawnChild('anvil', [ANVIL, '--host', '127.0.0.1', '--port', String(port), '--no-mining'], tmpdir());
  return ready(child, `http://127.0.0.1:${port}`, timeoutMs);
}

/** `hardhat node` (Hardhat 2, EDR) with its defaults and chain id 31337. */
export async function startHardhat(timeoutMs = 60_000): Promise<DevNode> {
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-hardhat-'));
  writeFileSync(join(dir, 'hardhat.config.js'), HARDHAT_CONFIG);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const port = await freePort();
  const child = spawnChild('hardhat', ['node', 'node_modules/hardhat/internal/cli/cli.js', 'node', '--hostname', '127.0.0.1', '--port', String(port)], dir);
  return ready(child, `http://127.0.0.1:${port}`, timeoutMs);
}

async function ready(child: ReturnType<typeof spawnChild>, url: string, timeoutMs: number): Promise<DevNode> {
  const node = { url, pid: child.pid, stop: () => child.stop(0) };
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
