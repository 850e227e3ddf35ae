// `blocktrace cache ls` and `blocktrace cache clear`: the replay cache directory, for a person.
import { clearCache, type CacheEntry, listCache } from '../cache/store.ts';

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

export function runCache(action: 'ls' | 'clear', dir: string | undefined, out: { write(text: string): unknown }, log: (line: string) => void): number {
  if (dir === undefined) {
    log('blocktrace: no cache directory (set --cache DIR, XDG_CACHE_HOME or HOME)');
    return 2;
  }
  const total = (entries: readonly CacheEntry[]): number => entries.reduce((n, e) => n + e.bytes, 0);
  if (action === 'clear') {
    const removed = clearCache(dir);
    out.write(`removed ${removed.length} snapshots, ${mib(total(removed))}, from ${dir}\n`);
    return 0;
  }
  const entries = listCache(dir);
  for (const e of entries) out.write(`${e.used.toISOString()}  ${mib(e.bytes).padStart(10)}  ${e.name}\n`);
  out.write(`${entries.length} snapshots, ${mib(total(entries))}, in ${dir} (most recently used first)\n`);
  return 0;
}
