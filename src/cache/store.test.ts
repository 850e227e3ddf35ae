import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writerHost } from './snapshot.ts';
import { clearCache, listCache, pruneCache, STALE_TEMP_MS, sweepTemps, touch } from './store.ts';

const dir = mkdtempSync(join(tmpdir(), 'blocktrace-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const make = (name: string, bytes: number, minutesAgo: number): string => {
  const path = join(dir, name);
  writeFileSync(path, new Uint8Array(bytes));
  const at = new Date(Date.now() - minutesAgo * 60_000);
  utimesSync(path, at, at);
  return path;
};

test('the cap removes the least recently used first, never the one just written; a read makes one recent', () => {
  make('a.snap', 100, 30);
  const b = make('b.snap', 100, 20);
  make('c.snap', 100, 10);
  const d = make('d.snap', 100, 40); // the oldest, but just read
  make('stray.tmp', 5, 50);
  touch(d);
  expect(listCache(dir).map((e) => e.name)).toEqual(['d.snap', 'c.snap', 'b.snap', 'a.snap']);
  expect(pruneCache(dir, 250, b).map((e) => e.name)).toEqual(['a.snap']);
  expect(listCache(dir).map((e) => e.name)).toEqual(['d.snap', 'c.snap', 'b.snap']);
  expect(pruneCache(dir, 150, b).map((e) => e.name)).toEqual(['c.snap']);
  expect(listCache(dir).map((e) => e.name)).toEqual(['d.snap', 'b.snap']);
  expect(clearCache(dir).length).toBe(2);
  expect(listCache(dir)).toEqual([]);
});

test('sweepTemps removes the temporary files of dead writers and stale ones, and keeps those being written', () => {
  const sweep = mkdtempSync(join(tmpdir(), 'blocktrace-sweep-'));
  try {
    const exited = Bun.spawnSync(['true']).pid; // a process that has ended
    const key = 'ab'.repeat(32);
    const host = writerHost();
    const put = (name: string, minutesAgo = 0): void => {
      writeFileSync(join(sweep, name), 'x');
      const at = new Date(Date.now() - minutesAgo * 60_000);
      utimesSync(join(sweep, name), at, at);
    };
    put(`${key}.snap.${host}.${exited}.0123abcd.tmp`); // killed here: removed
    put(`${key}.snap.${exited}.0123abcd.tmp`); // killed, named as before the host was: removed
    put(`${key}.snap.${host}.${process.pid}.0123abcd.tmp`); // being written by a live process: kept
    put(`${key}.snap.other-host.${exited}.0123abcd.tmp`); // another machine's, fresh: kept
    put(`${key}.snap.other-host.${process.pid}.4567abcd.tmp`, STALE_TEMP_MS / 60_000 + 1); // another machine's, stale: removed
    put(`${key}.snap`); // a snapshot: never a temporary file
    put('notes.tmp'); // not a snapshot's: not ours to remove
    expect(sweepTemps(sweep).sort()).toEqual([`${key}.snap.${exited}.0123abcd.tmp`, `${key}.snap.${host}.${exited}.0123abcd.tmp`, `${key}.snap.other-host.${process.pid}.4567abcd.tmp`].sort());
    expect(readdirSync(sweep).sort()).toEqual([`${key}.snap`, `${key}.snap.${host}.${process.pid}.0123abcd.tmp`, `${key}.snap.other-host.${exited}.0123abcd.tmp`, 'notes.tmp'].sort());
  } finally {
    rmSync(sweep, { recursive: true, force: true });
  }
});
