// `npm test`: `bun test` with every temporary file of the run in one directory that is removed
// when the run ends, whatever its outcome. The tests, the CLIs and the anvil and Chromium processes
// they start all take os.tmpdir() (TMPDIR) for their scratch files; replay snapshots go to
// XDG_CACHE_HOME (src/cache/snapshot.ts), never to the user's cache. Before this wrapper every run
// left some 120 MB of directories in /tmp. Arguments are passed on: `npm test -- test/cache.test.ts`.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = mkdtempSync(join(tmpdir(), 'blocktrace-test-run-'));
const cache = join(root, 'cache');
mkdirSync(cache);
const child = Bun.spawn([process.execPath, 'test', '--timeout', '120000', ...process.argv.slice(2)], {
  stdio: ['inherit', 'inherit', 'inherit'],
  env: { ...process.env, TMPDIR: root, XDG_CACHE_HOME: cache, BLOCKTRACE_TEST_RUN: root },
});
// a Ctrl-C reaches bun test as well (same process group): wait for it, then clean up
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const code = await child.exited;
rmSync(root, { recursive: true, force: true });
process.exit(code);
