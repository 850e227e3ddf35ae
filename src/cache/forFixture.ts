// The replay cache of one fixture: its key (the fixture's bytes, the test picked in it, the
// blocktrace version), the snapshot found under it, and where the replay's own goes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReplayCache } from '../replay/chain.ts';
import { VERSION } from '../version.ts';
import { mapFile } from './mapFile.ts';
import { readSnapshot, snapshotKey, snapshotPath, writeSnapshot } from './snapshot.ts';
import { DEFAULT_CACHE_MAX_BYTES, pruneCache, touch } from './store.ts';

/** The bytes a fixture path names: a file, or every file of a directory (genesis.json + chain.rlp). */
function contentOf(file: string): Uint8Array {
  if (!statSync(file).isDirectory()) return mapFile(file);
  const parts: Uint8Array[] = [];
  for (const name of readdirSync(file).sort()) {
    const path = join(file, name);
    if (statSync(path).isFile()) parts.push(new TextEncoder().encode(`${name}\0`), readFileSync(path));
  }
  return Buffer.concat(parts);
}

/**
 * The cache for `path` (undefined: the built-in fixture) in `dir`; undefined when the fixture cannot
 * be read here (its loader then says why) or caching is off.
 */
/** The snapshot key of the fixture at `path` (undefined: the built-in one); throws when it cannot be read. */
export function fixtureKey(path: string | undefined): string {
  if (path === undefined) return snapshotKey('built-in fixture', '', VERSION);
  const hash = path.lastIndexOf('#');
  const file = hash > 0 ? path.slice(0, hash) : path;
  return snapshotKey(contentOf(file), hash > 0 ? path.slice(hash + 1) : '', VERSION);
}

/** How `cache ls` names the fixture of a snapshot: its absolute path (with `#test`), or the built-in one. */
export const fixtureLabel = (path: string | undefined): string => (path === undefined ? BUILT_IN : resolve(path));
const BUILT_IN = 'built-in prague-devnet fixture';

export function fixtureCache(path: string | undefined, dir: string | undefined, warn: (line: string) => void, maxBytes = DEFAULT_CACHE_MAX_BYTES): ReplayCache | undefined {
  if (dir === undefined) return undefined;
  let key: string;
  try {
    key = fixtureKey(path);
  } catch {
    return undefined;
  }
  const file = snapshotPath(dir, key);
  const snapshot = readSnapshot(dir, key, warn);
  if (snapshot !== undefined) touch(file);
  return {
    snapshot,
    // written once the loaded chain has been handed over (a timer), so the first requests a server
    // was holding are answered before the file is; a process lets its timers run before it exits.
    // Then the least recently used snapshots go until the cache fits its cap (this one stays).
    save: (written) =>
      void setTimeout(() => {
        writeSnapshot(dir, key, written, warn, fixtureLabel(path));
        pruneCache(dir, maxBytes, file);
      }, 0),
    warn,
  };
}
