// The memory a load may take (issue 37): `--max-memory SIZE`, else 90% of what the machine (or the
// cgroup the process runs in) has, where that can be read. The resident size is read as each block is replayed or restored;
// past the limit the load stops with one line naming the size it reached, where the system's
// out-of-memory killer would end the process without a word. A stopped load writes no snapshot (a
// snapshot is written whole, after the load).
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { FixtureError } from '../errors/fixtureError.ts';
import type { LoadProgress } from '../replay/chain.ts';

/** Bytes a file gives, or undefined where it cannot be read (another system, or Deno without the flag). */
function readBytes(path: string, pattern: RegExp, unit = 1): number | undefined {
  try {
    const match = pattern.exec(readFileSync(path, 'utf8'));
    return match === null ? undefined : Number(match[1]) * unit;
  } catch {
    return undefined;
  }
}

/**
 * Bytes the machine has for this process: its cgroup's limit (cgroup v2 `memory.max`) or its
 * memory (`/proc/meminfo`, else the runtime's `os.totalmem`, which Deno gives only with
 * --allow-sys), the lower; undefined where none can be read.
 */
function machineMemory(): number | undefined {
  const cgroup = readBytes('/sys/fs/cgroup/memory.max', /^(\d+)\s*$/);
  let total = readBytes('/proc/meminfo', /^MemTotal:\s+(\d+) kB$/m, 1024);
  if (total === undefined) {
    try {
      total = totalmem();
    } catch {
      // Deno without --allow-sys: the cgroup's limit, if any
    }
  }
  const known = [cgroup, total].filter((n): n is number => n !== undefined && n > 0);
  return known.length === 0 ? undefined : Math.min(...known);
}

const size = (bytes: number): string => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`);

/** What a load may use, and how the message names it. */
export interface MemoryLimit {
  readonly bytes: number;
  readonly named: string;
}

/** The limit `--max-memory` gives, else 90% of the machine's memory; none where that cannot be known. */
export function memoryLimit(option: number | undefined): MemoryLimit | undefined {
  if (option !== undefined) return { bytes: option, named: `--max-memory ${size(option)}` };
  const machine = machineMemory();
  if (machine === undefined) return undefined;
  const bytes = Math.floor(machine * 0.9);
  return { bytes, named: `${size(bytes)} (90% of this machine's ${size(machine)}; --max-memory SIZE sets another)` };
}

/** `progress` with the limit checked first, at every block of the load (no limit: `progress` alone). */
export function guardMemory(limit: MemoryLimit | undefined, fixture: string, progress?: LoadProgress): LoadProgress | undefined {
  if (limit === undefined) return progress;
  return (done, total, txs, head, phase = 'replaying') => {
    const resident = process.memoryUsage.rss();
    if (resident > limit.bytes) {
      throw new FixtureError(`${fixture}: the load passed the memory it may use, ${limit.named}: ${size(resident)} resident at block ${head} (${done} of ${total} blocks ${phase === 'restoring' ? 'read from the snapshot' : 'replayed'})`);
    }
    progress?.(done, total, txs, head, phase);
  };
}
