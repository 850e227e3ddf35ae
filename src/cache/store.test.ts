import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearCache, listCache, pruneCache, touch } from './store.ts';

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
