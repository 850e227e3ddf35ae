// `blocktrace cache ls` and `blocktrace cache clear [FIXTURE]`: the replay cache directory, for a
// person: each snapshot with the fixture it was made from, and removing all of them or one fixture's.
import { basename } from 'node:path';
import { fixtureKey, fixtureLabel } from '../cache/forFixture.ts';
import { snapshotPath } from '../cache/snapshot.ts';
import { clearCache, type CacheEntry, listCache } from '../cache/store.ts';

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** The current snapshot file name of `fixture`, when the fixture can be read here. */
function currentName(dir: string, fixture: string): string | undefined {
  try {
    return basename(snapshotPath(dir, fixtureKey(fixture)));
  } catch {
    return undefined; // moved or deleted: its snapshots are still found by the path they name
  }
}

export function runCache(action: 'ls' | 'clear', dir: string | undefined, out: { write(text: string): unknown }, log: (line: string) => void, fixture?: string): number {
  if (dir === undefined) {
    log('blocktrace: no cache directory (set --cache DIR, XDG_CACHE_HOME or HOME)');
    return 2;
  }
  const total = (entries: readonly CacheEntry[]): number => entries.reduce((n, e) => n + e.bytes, 0);
  if (action === 'clear') {
    const only = fixture === undefined ? undefined : { fixture: fixtureLabel(fixture), name: currentName(dir, fixture) };
    const removed = clearCache(dir, only);
    for (const e of removed) out.write(`removed ${e.fixture ?? '(fixture not named: an older version)'}  ${mib(e.bytes)}  ${e.name}\n`);
    out.write(`removed ${removed.length} snapshots, ${mib(total(removed))}, from ${dir}${only === undefined ? '' : ` (those of ${only.fixture})`}\n`);
    return 0;
  }
  const entries = listCache(dir);
  for (const e of entries) out.write(`${e.used.toISOString()}  ${mib(e.bytes).padStart(10)}  ${e.fixture ?? '(fixture not named: an older version)'}  ${e.name}\n`);
  out.write(`${entries.length} snapshots, ${mib(total(entries))}, in ${dir} (most recently used first)\n`);
  return 0;
}
