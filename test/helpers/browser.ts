// `blocktrace serve` as a real process on 127.0.0.1 and headless Chromium (Debian's chromium, driven
// by playwright-core, installed with apt when missing), for tests of the viewer. As test/ui.test.ts
// does it, with serve's stderr kept (warnings at start are part of what a test checks).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { freePort } from './anvil.ts';
import { BUN, CLI, ROOT } from '../faces.ts';

const CHROMIUM = '/usr/bin/chromium';

/** Why Chromium cannot run here (after trying apt-get), or undefined when it can. */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const apt = Bun.spawnSync(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'], { stdout: 'ignore', stderr: 'pipe' });
  if (apt.exitCode !== 0 || !existsSync(CHROMIUM)) {
    return `Debian's chromium is not installed and apt-get could not install it: ${new TextDecoder().decode(apt.stderr).trim().split('\n').pop() ?? ''}`;
  }
  return undefined;
}

/** A fresh headless Chromium (its own empty profile). */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });

export interface Served {
  readonly url: string;
  /** What serve wrote to stderr so far. */
  stderr(): string;
  /** Kills it by its PID and waits for it to exit. */
  stop(): Promise<void>;
}

/** `blocktrace serve FIXTURE --port P ARGS…`, resolved once it answers JSON-RPC. */
export async function serveFixture(fixture: string, args: readonly string[]): Promise<Served> {
  const port = await freePort();
  const proc = Bun.spawn([BUN, CLI, 'serve', fixture, '--host', '127.0.0.1', '--port', String(port), ...args], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' });
  let stderr = '';
  void (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL');
    await proc.exited;
  };
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
      break;
    } catch (err) {
      if (i > 300 || proc.exitCode !== null) {
        await stop();
        throw new Error(`serve did not start: ${(err as Error).message}\n${stderr}`);
      }
      await Bun.sleep(100);
    }
  }
  return { url, stderr: () => stderr, stop };
}
