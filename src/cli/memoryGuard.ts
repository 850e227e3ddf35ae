// The memory a load may take (issue 37): `--max-memory SIZE`, else 90% of what the machine (or the
// cgroup the process runs in) has. The resident size is read as each block is replayed or restored;
// past the limit the load stops with one line naming the size it reached, where the system's
// out-of-memory killer would end the process without a word. A stopped load writes no snapshot (a
// snapshot is written whole, after the load).
import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { FixtureError } from '../errors/fixtureError.ts';
import type { LoadProgress } from '../replay/chain.ts';

/** Bytes the machine has for this process: its memory, or its cgroup's limit when lower (cgroup v2 `memory.max`). */
function machineMemory(): number {
  let bytes = totalmem();
  try {
    const max = readFileSync('/sys/fs/cgroup/memory.max', 'utf8').trim();
    if (/^\d+$/.test(max)) bytes = Math.min(bytes, Number(max));
  } catch {
    // no cgroup v2 file (another system): the machine's memory
  }
  return bytes;
}

const size = (bytes: number): string => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`);

/** What a load may use, and how the message names it. */
export interface MemoryLimit {
  readonly bytes: number;
  readonly named: string;
}

export function memoryLimit(option: number | undefined): MemoryLimit {
  if (option !== undefined) return { bytes: option, named: `--max-memory ${size(option)}` };
  const machine = machineMemory();
  const bytes = Math.floor(machine * 0.9);
  return { bytes, named: `${size(bytes)} (90% of this machine's ${size(machine)}; --max-memory SIZE sets another)` };
}

/** `progress` with the limit checked first, at every block of the load. */
export function guardMemory(limit: MemoryLimit, fixture: string, progress?: LoadProgress): LoadProgress {
  return (done, total, txs, head, phase = 'replaying') => {
    const resident = process.memoryUsage.rss();
    if (resident > limit.bytes) {
      throw new FixtureError(`${fixture}: the load passed the memory it may use, ${limit.named}: ${size(resident)} resident at block ${head} (${done} of ${total} blocks ${phase === 'restoring' ? 'read from the snapshot' : 'replayed'})`);
    }
    progress?.(done, total, txs, head, phase);
  };
}
