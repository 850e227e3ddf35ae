// bun test preload (bunfig.toml): code the tests run in this process keeps its temporary files and
// replay snapshots in a directory of this run, never in the user's cache (src/cache/snapshot.ts
// defaultCacheDir). `npm test` (test/run.ts) already points TMPDIR and XDG_CACHE_HOME at one
// directory it removes at the end, for the test process and every process it starts; for `bun test`
// run by hand this preload does the same for the test process (os.tmpdir() reads TMPDIR when asked)
// and removes the directory after the last test (a hook of a preload runs once for the whole run;
// bun test emits no 'exit' to it).
import { afterAll } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

if (process.env['BLOCKTRACE_TEST_RUN'] === undefined) {
  const root = mkdtempSync(join(tmpdir(), 'blocktrace-test-run-'));
  const cache = join(root, 'cache');
  mkdirSync(cache);
  process.env['TMPDIR'] = root;
  process.env['XDG_CACHE_HOME'] = cache;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
}
