// Into any project (issue 47): blocktrace installed as a devDependency from a git URL of a clone
// (`git+file://`) and from the packed tarball, each into an empty project, with an npm cache of its
// own (so nothing can come from a registry) and no Bun anywhere on PATH. The package carries its
// bundle (dist/blocktrace.mjs, committed), declares no dependency and runs no install script, so
// npm neither builds nor installs anything for it; `npx blocktrace` then runs on Node.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './faces.ts';

const SLOW = 240_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-install-'));
afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);
/** Node's own directory (npm and npx beside it) and the system's (git), nothing of the checkout: no Bun. */
const PATH = `${dirname(Bun.which('node')!)}:/usr/bin:/bin`;
const ENV = { PATH, HOME: work, XDG_CACHE_HOME: join(work, 'cache'), npm_config_cache: join(work, 'npm-cache'), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(command: readonly string[], cwd: string, env: Record<string, string | undefined> = ENV): Promise<Run> {
  const proc = Bun.spawn([...command], { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const killer = setTimeout(() => proc.kill(), SLOW);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** An empty project with the anvil recordings of the prague-devnet chain as its goldens. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, version: '1.0.0', private: true })}\n`);
  cpSync(join(ROOT, 'golden/anvil/prague-devnet'), join(dir, 'goldens'), { recursive: true });
  return dir;
}

const projects: Record<'git' | 'tarball', string> = { git: '', tarball: '' };
let tarball = '';

beforeAll(async () => {
  // a clone of this checkout's HEAD: what a git URL gives npm
  const clone = join(work, 'clone');
  expect((await run(['git', 'clone', '-q', '--depth', '1', `file://${ROOT}`, clone], work, { ...process.env })).code).toBe(0);
  const packed = await run(['npm', 'pack', clone, '--pack-destination', work], work);
  expect(packed.code).toBe(0);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  projects.git = project('from-git');
  projects.tarball = project('from-tarball');
  for (const [dir, spec] of [[projects.git, `git+file://${clone}`], [projects.tarball, tarball]] as const) {
    const installed = await run(['npm', 'install', '--save-dev', spec], dir);
    expect(installed.stderr).not.toContain('ERR');
    expect(installed.code).toBe(0);
  }
}, SLOW);

test('no Bun on the PATH the installs and runs have', () => {
  expect(Bun.which('bun', { PATH })).toBeNull();
});

test('the packed package.json declares no dependency and no script npm runs on install (or for a git dependency)', async () => {
  const listed = await run(['tar', '-xzOf', tarball, 'package/package.json'], work);
  const pkg = JSON.parse(listed.stdout) as { dependencies?: object; scripts?: Record<string, string> };
  expect(pkg.dependencies).toBeUndefined();
  // npm runs these in a dependent's install; a git dependency with any of them gets every
  // devDependency installed and `prepare` run in its clone (pacote's git fetcher)
  for (const script of ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'build']) expect(pkg.scripts?.[script]).toBeUndefined();
  const files = (await run(['tar', '-tzf', tarball], work)).stdout.split('\n');
  expect(files).toContain('package/dist/blocktrace.mjs');
  expect(files).toContain('package/bin/blocktrace.mjs');
});

describe.each(['git', 'tarball'] as const)('installed from %s as a devDependency', (from) => {
  test('the project has blocktrace and nothing else in node_modules; package.json lists it', () => {
    const dir = projects[from];
    expect(readdirSync(join(dir, 'node_modules')).filter((f) => !f.startsWith('.')).sort()).toEqual(['blocktrace']);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(Object.keys(pkg.devDependencies)).toEqual(['blocktrace']);
  });

  test('npx blocktrace check builtin:prague-devnet goldens: every recording passes, on Node', async () => {
    const out = await run(['npx', 'blocktrace', 'check', 'builtin:prague-devnet', 'goldens'], projects[from]);
    expect(out.stderr).toBe('');
    expect([out.code, out.stdout]).toEqual([0, '8 passed, 0 failed\n']);
  }, SLOW);

  // the bin npx runs, started itself: npx's npm exec does not pass SIGTERM on, and a server started
  // through it outlived the test
  test('blocktrace serve builtin:cancun-devnet (node_modules/.bin/blocktrace, the bin npx runs) answers over HTTP', async () => {
    const proc = Bun.spawn([join(projects[from]!, 'node_modules/.bin/blocktrace'), 'serve', 'builtin:cancun-devnet', '--host', '127.0.0.1', '--port', '0', '--no-cache'], { cwd: projects[from], env: ENV, stdout: 'ignore', stderr: 'pipe' });
    try {
      const reader = proc.stderr.getReader();
      let seen = '';
      while (!seen.includes('chain builtin:cancun-devnet')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`serve ended: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen)![1]!;
      const body = '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}';
      expect(await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0xc"}');
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  }, SLOW);

  test('a script line the project adds (npm run traces) runs it', async () => {
    const dir = projects[from];
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, scripts: { traces: 'blocktrace check builtin:prague-devnet goldens' } }));
    const out = await run(['npm', 'run', '--silent', 'traces'], dir);
    expect([out.code, out.stdout]).toEqual([0, '8 passed, 0 failed\n']);
  }, SLOW);
});

test('an install whose bundle is missing: one line saying how to fix it, exit 2, no stack', async () => {
  const broken = join(work, 'broken');
  cpSync(join(projects.tarball, 'node_modules/blocktrace'), broken, { recursive: true });
  rmSync(join(broken, 'dist'), { recursive: true });
  const out = await run(['node', join(broken, 'bin/blocktrace.mjs'), '--version'], work);
  expect(out.code).toBe(2);
  expect(out.stderr.split('\n')).toHaveLength(2);
  expect(out.stderr).toStartWith(`blocktrace: ${join(broken, 'dist/blocktrace.mjs')} is missing`);
  expect(out.stderr).toContain('install it again');
});
