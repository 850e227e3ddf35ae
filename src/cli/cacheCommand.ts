// `blocktrace cache ls [--all]` and `blocktrace cache clear [FIXTURE]`: the replay cache directory,
// for a person: one line per fixture (its snapshots' count, size and last use), or with --all each
// snapshot file with the fixture it was made from; and removing all of them or one fixture's.
import { basename } from 'node:path';
import { fixtureKey, fixtureLabel } from '../cache/forFixture.ts';
import { snapshotPath } from '../cache/snapshot.ts';
import { byFixture, clearCache, type CacheEntry, listCache } from '../cache/store.ts';

const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
const UNNAMED = '(fixture not named: an older version)';
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** How long ago `then` was, as a person says it: `42 s ago`, `5 min ago`, `3 h ago`, `12 days ago`. */
export function age(then: Date, now: Date): string {
  const s = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

/** The current snapshot file name of `fixture`, when the fixture can be read here. */
function currentName(dir: string, fixture: string): string | undefined {
  try {
    return basename(snapshotPath(dir, fixtureKey(fixture)));
  } catch {
    return undefined; // moved or deleted: its snapshots are still found by the path they name
  }
}

export interface CacheRequest {
  readonly action: 'ls' | 'clear';
  /** `clear FIXTURE`: that fixture's snapshots only. */
  readonly fixture?: string;
  /** `ls --all`: every snapshot file rather than one line per fixture. */
  readonly all?: boolean;
}

export function runCache(request: CacheRequest, dir: string | undefined, out: { write(text: string): unknown }, log: (line: string) => void, now = new Date()): number {
  if (dir === undefined) {
    log('blocktrace: no cache directory (set --cache DIR, XDG_CACHE_HOME or HOME)');
    return 2;
  }
  const total = (entries: readonly CacheEntry[]): number => entries.reduce((n, e) => n + e.bytes, 0);
  if (request.action === 'clear') {
    const only = request.fixture === undefined ? undefined : { fixture: fixtureLabel(request.fixture), name: currentName(dir, request.fixture) };
    const removed = clearCache(dir, only);
    for (const e of removed) out.write(`removed ${e.fixture ?? UNNAMED}  ${mib(e.bytes)}  ${e.name}\n`);
    out.write(`removed ${plural(removed.length, 'snapshot')}, ${mib(total(removed))}, from ${dir}${only === undefined ? '' : ` (those of ${only.fixture})`}\n`);
    return 0;
  }
  const entries = listCache(dir);
  const groups = byFixture(entries);
  if (request.all === true) {
    for (const e of entries) out.write(`${e.used.toISOString()}  ${mib(e.bytes).padStart(10)}  ${e.fixture ?? UNNAMED}  ${e.name}\n`);
  } else {
    const counts = groups.map((g) => plural(g.entries.length, 'snapshot'));
    const ages = groups.map((g) => `used ${age(g.used, now)}`);
    const [countWidth, ageWidth] = [Math.max(0, ...counts.map((c) => c.length)), Math.max(0, ...ages.map((a) => a.length))];
    groups.forEach((g, i) => out.write(`${mib(g.bytes).padStart(10)}  ${counts[i]!.padEnd(countWidth)}  ${ages[i]!.padEnd(ageWidth)}  ${g.fixture ?? UNNAMED}\n`));
  }
  const more = request.all === true || entries.length === groups.length ? '' : '; cache ls --all lists each file';
  out.write(`${plural(entries.length, 'snapshot')} of ${plural(groups.length, 'fixture')}, ${mib(total(entries))}, in ${dir} (most recently used first${more})\n`);
  return 0;
}
