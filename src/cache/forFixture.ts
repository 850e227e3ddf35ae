// The replay cache of one fixture: its key (the fixture's bytes, the test picked in it, the
// blocktrace version), the snapshot found under it, and where the replay's own goes.
import { resolve } from 'node:path';
import { DEFAULT_FIXTURE, isBuiltin } from '../fixture/builtin.ts';
import type { ReplayCache } from '../replay/chain.ts';
import { fixtureKeyLater } from './fixtureKey.ts';
import { readSnapshot, snapshotPath, writeSnapshot } from './snapshot.ts';
import { DEFAULT_CACHE_MAX_BYTES, pruneCache, sweepTemps, touch } from './store.ts';

export { fixtureKey } from './fixtureKey.ts';

/** How `cache ls` names the fixture of a snapshot: its absolute path (with `#test`), `builtin:NAME`, or the default built-in one. */
export const fixtureLabel = (path: string | undefined): string => (path === undefined || path === DEFAULT_FIXTURE ? BUILT_IN : isBuiltin(path) ? path : resolve(path));
const BUILT_IN = 'built-in prague-devnet fixture';

/**
 * The cache for `path` (undefined: the default built-in fixture; `builtin:NAME` another) in `dir`, begun now and taken when the
 * result is called: the fixture's key is made meanwhile (fixtureKeyLater), while the caller reads
 * the fixture. Undefined when the fixture cannot be read here (its loader then says why) or
 * caching is off.
 */
export function fixtureCache(path: string | undefined, dir: string | undefined, warn: (line: string) => void, maxBytes = DEFAULT_CACHE_MAX_BYTES): () => Promise<ReplayCache | undefined> {
  if (dir === undefined) return () => Promise.resolve(undefined);
  const key = fixtureKeyLater(path);
  // a caller that stops before taking the cache (a fixture that cannot be read) leaves no rejection unheard
  key.catch(() => {});
  return async () => {
    let made: string;
    try {
      made = await key;
    } catch {
      return undefined;
    }
    return cacheOf(path, dir, made, warn, maxBytes);
  };
}

function cacheOf(path: string | undefined, dir: string, made: string, warn: (line: string) => void, maxBytes: number): ReplayCache {
  const file = snapshotPath(dir, made);
  // what a writer killed mid-write (kill -9, a crash, a power cut) left: its snapshot was never renamed into place
  sweepTemps(dir);
  const snapshot = readSnapshot(dir, made, warn);
  if (snapshot !== undefined) touch(file);
  return {
    snapshot,
    // written once the loaded chain has been handed over (a timer), so the first requests a server
    // was holding are answered before the file is; a process lets its timers run before it exits.
    // Then the least recently used snapshots go until the cache fits its cap (this one stays).
    save: (written) =>
      void setTimeout(() => {
        writeSnapshot(dir, made, written, warn, fixtureLabel(path));
        pruneCache(dir, maxBytes, file);
      }, 0),
    warn,
  };
}
