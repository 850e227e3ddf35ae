// The committed bundle (dist/blocktrace.mjs) is what an install from git or a tarball, and the
// GitHub Action, run on Node: it must be exactly what build.ts makes of the sources now, or a
// stale copy would answer with yesterday's code. `npm run bundle` makes it again.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUN, ROOT } from './faces.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

test('dist/blocktrace.mjs is committed and equals a fresh build of the sources (else: npm run bundle, and commit it)', async () => {
  const git = Bun.spawnSync(['git', 'ls-files', '--error-unmatch', 'dist/blocktrace.mjs'], { cwd: ROOT, stdout: 'ignore', stderr: 'ignore' });
  expect(git.exitCode).toBe(0);
  const build = Bun.spawn([BUN, join(ROOT, 'build.ts'), work, '--bundle-only'], { cwd: work, stdout: 'ignore', stderr: 'pipe' });
  expect(await build.exited).toBe(0);
  const fresh = readFileSync(join(work, 'blocktrace.mjs'));
  const committed = readFileSync(join(ROOT, 'dist/blocktrace.mjs'));
  // a byte comparison, not toEqual of two 6 MiB buffers (whose failure would print both)
  expect(Buffer.compare(fresh, committed) === 0).toBe(true);
}, 120_000);
