// blocktrace's server for the benchmark: `bun src/cli.ts serve` (or the compiled binary) on
// 127.0.0.1 port 0; the port is read from its "listening on" line, printed once the fixture is
// loaded and replayed.
import { type Child, spawnChild } from './procs.ts';

export interface Server {
  readonly child: Child;
  readonly url: string;
  /** From spawn to the "listening" line: load, replay and header checks of the whole fixture. */
  readonly readyMs: number;
}

const LISTENING = /blocktrace listening on http:\/\/127\.0\.0\.1:(\d+)\//;

export async function startBlocktrace(command: readonly string[], fixture: string, cwd: string, name = 'blocktrace'): Promise<Server> {
  const child = spawnChild(name, [...command, 'serve', fixture, '--port', '0', '--host', '127.0.0.1'], cwd);
  try {
    const match = await child.waitFor(LISTENING, 120_000);
    return { child, url: `http://127.0.0.1:${match[1]}/`, readyMs: performance.now() - child.startedAt };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
