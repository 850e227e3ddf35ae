// A fixture's snapshot key: SHA-256 of its bytes, the test picked in it and the blocktrace version.
// A large fixture is hashed on a worker thread while the main thread reads and parses it, which
// takes longer than the hash, so the key costs a second start nothing; a small one, or a runtime
// without workers (the Deno/Node bundle), hashes in place.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION } from '../version.ts';
import { mapFile } from './mapFile.ts';
import { DEFAULT_FIXTURE, isBuiltin } from '../fixture/builtin.ts';

/** Below this size a fixture is hashed in place: a worker's start-up would cost about what it saves. */
const WORKER_ABOVE = 16 * 2 ** 20;

/** The snapshot's name: the fixture's bytes, the test picked in it, and the blocktrace version. */
export function snapshotKey(content: Uint8Array | string, selector: string, version: string): string {
  return createHash('sha256').update(content).update('\0').update(selector).update('\0').update(version).digest('hex');
}

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

/** `FILE#TEST` → the file and the test; a path without `#` (or starting with it) names a file only. */
function split(path: string): [file: string, selector: string] {
  const hash = path.lastIndexOf('#');
  return hash > 0 ? [path.slice(0, hash), path.slice(hash + 1)] : [path, ''];
}

/** The snapshot key of the fixture at `path` (undefined: the default built-in one; `builtin:NAME` another); throws when it cannot be read. */
export function fixtureKey(path: string | undefined): string {
  // a built-in chain is part of this version of blocktrace: its name and the version are its key
  if (path === undefined || path === DEFAULT_FIXTURE) return snapshotKey('built-in fixture', '', VERSION);
  if (isBuiltin(path)) return snapshotKey(`built-in fixture ${path}`, '', VERSION);
  const [file, selector] = split(path);
  return snapshotKey(contentOf(file), selector, VERSION);
}

/**
 * The same key, started now and taken later: on a worker thread when the fixture is a large file
 * and this runtime has workers, so the caller can read the fixture meanwhile. Rejects when the
 * fixture cannot be read, as fixtureKey throws.
 */
export function fixtureKeyLater(path: string | undefined): Promise<string> {
  // a throw of fixtureKey becomes the promise's rejection
  const inPlace = (): Promise<string> => new Promise((resolve) => resolve(fixtureKey(path)));
  const worker = path === undefined ? undefined : startWorker(path);
  if (worker === undefined) return inPlace();
  return new Promise<string>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ key?: string; error?: string }>) => {
      void worker.terminate();
      if (event.data.key !== undefined) resolve(event.data.key);
      else reject(new Error(event.data.error ?? 'the key worker failed'));
    };
    worker.onerror = () => {
      void worker.terminate();
      // the worker could not run here: hash in place, as a small fixture is
      resolve(inPlace());
    };
    worker.postMessage(path);
  });
}

/** A worker hashing the fixture at `path`, when it is a large file and this runtime has workers. */
function startWorker(path: string): Worker | undefined {
  if (typeof Bun === 'undefined' || typeof Worker === 'undefined') return undefined;
  try {
    const stat = statSync(split(path)[0]);
    if (!stat.isFile() || stat.size < WORKER_ABOVE) return undefined;
    // a compiled binary holds the worker as one of its entry points (build.ts)
    const compiled = Bun.main.startsWith('/$bunfs/');
    return new Worker(compiled ? './cache/keyWorker.ts' : new URL('./keyWorker.ts', import.meta.url).href);
  } catch {
    return undefined;
  }
}
