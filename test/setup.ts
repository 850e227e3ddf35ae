// bun test preload (bunfig.toml): every CLI a test starts keeps its replay snapshots in a temporary
// directory of this run, never in the user's cache (src/cache/snapshot.ts defaultCacheDir).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env['XDG_CACHE_HOME'] = mkdtempSync(join(tmpdir(), 'blocktrace-test-cache-'));
