// The replay cache directory as a whole: what it holds (`blocktrace cache ls`), emptying it
// (`blocktrace cache clear`), keeping it under a size cap, least recently used first (a
// snapshot's modification time is set when it is read, so the oldest is the one used longest ago),
// and removing the temporary files of writers that were killed (sweepTemps).
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { writerHost } from './snapshot.ts';

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

/**
 * A temporary file untouched this long is a killed writer's whoever wrote it: a writer writes without
 * pause (the largest snapshots take seconds), so one on another machine or container sharing the
 * directory, whose process cannot be looked up from here, is judged by this age.
 */
export const STALE_TEMP_MS = 10 * 60_000;

/** `KEY.snap.HOST.PID.RANDOM.tmp` (snapshot.ts tempPath), or `KEY.snap.PID.RANDOM.tmp` as versions before named them. */
const TEMP = /^[0-9a-f]+\.snap\.(?:([A-Za-z0-9_-]+)\.)?(\d+)\.[0-9a-f]+\.tmp$/;

/** Whether process `pid` of this machine runs (a process of another user's counts: EPERM). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes the temporary files that killed writers left in `dir`: those of this machine whose process
 * is gone, and any left untouched for STALE_TEMP_MS. One a live process is writing (here, or
 * elsewhere within that age) stays. Run at each start that uses the cache; returns the names removed.
 */
export function sweepTemps(dir: string, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const host = writerHost();
  const removed: string[] = [];
  for (const name of names) {
    const match = TEMP.exec(name);
    if (match === null) continue;
    const path = join(dir, name);
    try {
      const ours = (match[1] ?? host) === host;
      const dead = ours && !running(Number(match[2]));
      if (!dead && now - statSync(path).mtimeMs < STALE_TEMP_MS) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // gone meanwhile (its writer renamed it, another start swept it), or a read-only directory
    }
  }
  return removed;
}
