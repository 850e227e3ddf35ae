// The replay cache directory as a whole: what it holds (`blocktrace cache ls`), emptying it
// (`blocktrace cache clear`), and keeping it under a size cap, least recently used first: a
// snapshot's modification time is set when it is read, so the oldest is the one used longest ago.
import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** The cap when none is given: 1 GiB. */
export const DEFAULT_CACHE_MAX_BYTES = 1024 ** 3;

export interface CacheEntry {
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
  /** When it was last written or read. */
  readonly used: Date;
}

/** The snapshots of `dir`, most recently used first; none when the directory does not exist. */
export function listCache(dir: string): CacheEntry[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const entries: CacheEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.snap')) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (stat.isFile()) entries.push({ name, path, bytes: stat.size, used: stat.mtime });
    } catch {
      // removed meanwhile (another process pruning)
    }
  }
  return entries.sort((a, b) => b.used.getTime() - a.used.getTime());
}

/** Marks a snapshot as used now (its modification time), for the least-recently-used order. */
export function touch(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache still serves; it only loses the order
  }
}

/** Removes the least recently used snapshots until the rest fit in `maxBytes`; `keep` is never removed. Returns what went. */
export function pruneCache(dir: string, maxBytes: number, keep?: string): CacheEntry[] {
  let total = 0;
  const removed: CacheEntry[] = [];
  for (const entry of listCache(dir)) {
    total += entry.bytes;
    if (total <= maxBytes || entry.path === keep) continue;
    try {
      rmSync(entry.path, { force: true });
      removed.push(entry);
    } catch {
      // cannot remove: leave it
    }
  }
  return removed;
}

/** Removes every snapshot (and temporary file left by a killed writer) of `dir`; returns what went. */
export function clearCache(dir: string): CacheEntry[] {
  const removed = listCache(dir);
  for (const entry of removed) rmSync(entry.path, { force: true });
  try {
    for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch {
    // no directory: nothing to clear
  }
  return removed;
}
