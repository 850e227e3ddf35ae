// bun test preload (bunfig.toml): code the tests run in this process keeps its replay snapshots in a
// temporary directory of this run, never in the user's cache (src/cache/snapshot.ts defaultCacheDir).
// `npm test` (test/run.ts) already points XDG_CACHE_HOME and TMPDIR at one directory it removes at
// the end; this covers `bun test` run by hand, whose directory is removed after the last test (a
// hook of this preload runs once for the whole run; bun test emits no 'exit' to it).
import { afterAll } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env['BLOCKTRACE_TEST_RUN'] === undefined) {
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-test-cache-'));
  process.env['XDG_CACHE_HOME'] = dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
}
