// The committed bundles (dist/blocktrace.mjs, the command; dist/lib/, the library the package
// exports, with its types) are what an install from git or a tarball, and the GitHub Action, run on
// Node: every committed file under dist/ must be exactly what build.ts makes of the sources now, and
// every file the build makes must be committed, or a stale copy would answer with yesterday's code.
// `npm run bundle` makes them again.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { BUN, ROOT } from './faces.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();

test('every file under dist/ is committed and equals a fresh build of the sources (else: npm run bundle, and commit them)', async () => {
  const git = Bun.spawnSync(['git', 'ls-files', 'dist'], { cwd: ROOT, stdout: 'pipe', stderr: 'ignore' });
  expect(git.exitCode).toBe(0);
  const committed = git.stdout.toString().split('\n').filter((f) => f !== '').map((f) => relative('dist', f)).sort();
  const build = Bun.spawn([BUN, join(ROOT, 'build.ts'), work, '--bundle-only'], { cwd: work, stdout: 'ignore', stderr: 'pipe' });
  expect(await build.exited).toBe(0);
  const fresh = filesUnder(work);
  expect(fresh).toContain('blocktrace.mjs');
  expect(fresh).toContain('lib/index.mjs');
  expect(committed).toEqual(fresh);
  // byte comparisons, not toEqual of two 6 MiB buffers (whose failure would print both)
  const stale = fresh.filter((file) => Buffer.compare(readFileSync(join(work, file)), readFileSync(join(ROOT, 'dist', file))) !== 0);
  expect(stale).toEqual([]);
}, 120_000);
