// The replay cache directory as a whole: what it holds (`blocktrace cache ls`), emptying it
// (`blocktrace cache clear`), and keeping it under a size cap, least recently used first: a
// snapshot's modification time is set when it is read, so the oldest is the one used longest ago.
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';

/** The cap when none is given: 1 GiB. */
export const DEFAULT_CACHE_MAX_BYTES = 1024 ** 3;

export interface CacheEntry {
  readonly name: string;
  readonly path: string;
  readonly bytes: number;
  /** When it was last written or read. */
  readonly used: Date;
  /** The fixture it was made from, as its header names it (snapshots of older versions name none). */
  readonly fixture?: string;
}

/** The header's start: `BTSNAPnn`, its length, then `{"key":"…","fixture":"…",` (snapshot.ts writes the fixture second). */
const HEAD_BYTES = 4096;
const FIXTURE = /^\{"key":"[0-9a-f]+","fixture":("(?:[^"\\]|\\.)*")/;

/** The fixture a snapshot file names, read from its first bytes only. */
function fixtureOf(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, head, 0, HEAD_BYTES, 0);
    const match = FIXTURE.exec(head.toString('utf8', 12, n));
    return match === null ? undefined : (JSON.parse(match[1]!) as string);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
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
      if (!stat.isFile()) continue;
      const fixture = fixtureOf(path);
      entries.push({ name, path, bytes: stat.size, used: stat.mtime, ...(fixture === undefined ? {} : { fixture }) });
    } catch {
      // removed meanwhile (another process pruning)
    }
  }
  return entries.sort((a, b) => b.used.getTime() - a.used.getTime());
}

/** The snapshots of one fixture (or of none named: `fixture` undefined), most recently used first. */
export interface FixtureSnapshots {
  readonly fixture: string | undefined;
  readonly entries: readonly CacheEntry[];
  readonly bytes: number;
  /** The last use of any of them. */
  readonly used: Date;
}

/** `entries` (most recently used first) by the fixture each names, the most recently used fixture first. */
export function byFixture(entries: readonly CacheEntry[]): FixtureSnapshots[] {
  const groups = new Map<string | undefined, CacheEntry[]>();
  for (const entry of entries) {
    const list = groups.get(entry.fixture) ?? [];
    list.push(entry);
    groups.set(entry.fixture, list);
  }
  return [...groups].map(([fixture, list]) => ({ fixture, entries: list, bytes: list.reduce((n, e) => n + e.bytes, 0), used: list[0]!.used }));
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

/**
 * Removes every snapshot (and temporary file left by a killed writer) of `dir`, or with `only` the
 * snapshots of one fixture (those its header names, and the one of its current key); returns what went.
 */
export function clearCache(dir: string, only?: { readonly fixture: string; readonly name: string | undefined }): CacheEntry[] {
  const removed = listCache(dir).filter((e) => only === undefined || e.fixture === only.fixture || e.name === only.name);
  for (const entry of removed) rmSync(entry.path, { force: true });
  if (only !== undefined) return removed;
  try {
    for (const name of readdirSync(dir)) if (name.endsWith('.tmp')) rmSync(join(dir, name), { force: true });
  } catch {
    // no directory: nothing to clear
  }
  return removed;
}
