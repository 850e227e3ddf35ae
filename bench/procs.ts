// Every process the benchmark starts goes through here, so each one is stopped by its PID: when the
// bench is done with it, when the bench fails, and on SIGINT/SIGTERM. Output is kept (bounded) for
// readiness lines and for the message when a process dies early.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const KEEP_OUTPUT = 64 * 1024;

export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly startedAt: number;
  /** stdout and stderr as text so far (the last 64 KiB). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code, whatever the process prints. */
  readonly exited: Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Map<number, Child>();

export function spawnChild(name: string, cmd: readonly string[], cwd: string): Child {
  const proc = Bun.spawn([...cmd], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const startedAt = performance.now();
  let text = '';
  const waiters = new Set<() => void>();
  const drain = async (stream: ReadableStream<Uint8Array>): Promise<void> => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      text += decoder.decode(chunk, { stream: true });
      if (text.length > KEEP_OUTPUT * 2) text = text.slice(-KEEP_OUTPUT);
      for (const wake of waiters) wake();
    }
  };
  void drain(proc.stdout);
  void drain(proc.stderr);
  const exited = proc.exited.then((code) => {
    live.delete(proc.pid);
    for (const wake of waiters) wake();
    return code;
  });
  let gone = false;
  void exited.then(() => (gone = true));

  const child: Child = {
    name,
    pid: proc.pid,
    startedAt,
    output: () => text,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = text.match(pattern);
          if (match !== null) return finish(() => resolve(match));
          if (gone) return finish(() => reject(new Error(`${name} (pid ${proc.pid}) exited before ${pattern}:\n${tail(text)}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`${name} (pid ${proc.pid}): no ${pattern} within ${timeoutMs} ms:\n${tail(text)}`))), timeoutMs);
        const finish = (then: () => void): void => {
          clearTimeout(timer);
          waiters.delete(check);
          then();
        };
        waiters.add(check);
        check();
      });
    },
    async stop(graceMs = 3000) {
      if (gone) return;
      signal(proc.pid, 'SIGTERM');
      const killer = setTimeout(() => signal(proc.pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(killer);
    },
  };
  live.set(proc.pid, child);
  return child;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function tail(text: string): string {
  return text.split('\n').slice(-12).join('\n');
}

/** Stops every process still running (each by its PID). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live.values()].map((c) => c.stop(2000)));
}

/**
 * Stops children on SIGINT/SIGTERM and, as a last resort, SIGKILLs them when the bench exits
 * for any reason; `deadlineMs` bounds the whole run.
 */
export function guardChildren(deadlineMs: number, log: (line: string) => void): void {
  const abort = (why: string, code: number): void => {
    log(`${why}, stopping ${live.size} process(es)`);
    void stopAll().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => abort('SIGINT', 130));
  process.once('SIGTERM', () => abort('SIGTERM', 143));
  process.once('exit', () => {
    for (const pid of live.keys()) signal(pid, 'SIGKILL');
  });
  setTimeout(() => abort(`deadline of ${deadlineMs / 1000} s passed`, 1), deadlineMs).unref();
}

/** A TCP port free on 127.0.0.1 right now (for servers that cannot be told port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a live process in MB (10^6 bytes), from /proc/PID/status VmRSS. */
export function rssMB(pid: number | 'self', field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  if (match === null) throw new Error(`/proc/${pid}/status has no ${field}`);
  return (Number(match[1]) * 1024) / 1e6;
}
