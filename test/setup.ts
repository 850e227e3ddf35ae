// bun test preload (bunfig.toml): code the tests run in this process keeps its replay snapshots in a
// temporary directory of this run, never in the user's cache (src/cache/snapshot.ts defaultCacheDir).
// Bun.spawn does not pass this change on to the CLIs a test starts: `npm test` sets XDG_CACHE_HOME
// for the whole run (package.json).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env['XDG_CACHE_HOME'] = mkdtempSync(join(tmpdir(), 'blocktrace-test-cache-'));
