// blocktrace's server for the benchmark: `bun src/cli.ts serve` (or the compiled binary) on
// 127.0.0.1 port 0; the port is read from its "listening on" line (the port opens before the
// replay), and the server is ready at its chain summary line, printed once the fixture is loaded
// and replayed. Without a snapshot cache unless the caller passes its own options.
import { type Child, spawnChild } from './procs.ts';

export interface Server {
  readonly child: Child;
  readonly url: string;
  /** From spawn to the chain summary line: load, replay and header checks of the whole fixture. */
  readonly readyMs: number;
}

const LISTENING = /blocktrace listening on http:\/\/127\.0\.0\.1:(\d+)\//;
const READY = /^chain .*: chainId \d+/m;

export async function startBlocktrace(command: readonly string[], fixture: string, cwd: string, name = 'blocktrace', options: readonly string[] = ['--no-cache']): Promise<Server> {
  // an empty fixture: none (upstream mode, given in options)
  const child = spawnChild(name, [...command, 'serve', ...(fixture === '' ? [] : [fixture]), '--port', '0', '--host', '127.0.0.1', ...options], cwd);
  try {
    const match = await child.waitFor(LISTENING, 120_000);
    await child.waitFor(READY, 120_000);
    return { child, url: `http://127.0.0.1:${match[1]}/`, readyMs: performance.now() - child.startedAt };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
