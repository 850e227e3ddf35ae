// The README's synopsis is the Usage block of `blocktrace --help`, line for line, so neither can
// drift from what the command line takes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HELP_TEXT } from '../src/cli/args.ts';

const ROOT = join(import.meta.dir, '..');

test('the README synopsis is the Usage block of --help', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- synopsis:[^\n]*-->\n```\n([\s\S]*?)\n```/.exec(readme);
  expect(block).not.toBeNull();
  const usage = /\nUsage:\n([\s\S]*?)\n\n/.exec(HELP_TEXT);
  expect(usage).not.toBeNull();
  const helpLines = usage![1]!.split('\n').map((line) => line.replace(/^ {2}/, ''));
  expect(block![1]!.split('\n')).toEqual(helpLines);
});

test('every docs/ page the README links to exists', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\((docs\/[^)]+)\)/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThan(5);
  for (const link of links) expect(() => readFileSync(join(ROOT, link))).not.toThrow();
});

// The README's examples (issue 47), each run from an empty directory of a project that installed the
// packed package, with no Bun on PATH: what an installed user runs. Those that name a file of this
// repository (artifacts, goldens, the debugger's chain) say so, and the directory gets that file;
// `requests.txt` holds the harness example's request, as the README says.
describe('the README examples, from an empty directory against the installed package', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  // an example is a whole command; `npx blocktrace …` in the prose is not one
  const examples = [...readme.matchAll(/`((?:echo '[^'`]*' \| )?npx blocktrace [^`…]*)`/g)].map((m) => m[1]!);
  /** They need a live node, or chains of the reader's own: the README says so beside each. */
  const needsMore = (e: string): boolean => /--upstream|--rpc|before\.json/.test(e);
  const work = mkdtempSync(join(tmpdir(), 'blocktrace-readme-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }), 60_000);
  const project = join(work, 'project');
  const ENV = { PATH: `${dirname(Bun.which('node')!)}:/usr/bin:/bin`, HOME: work, XDG_CACHE_HOME: join(work, 'cache'), npm_config_cache: join(work, 'npm-cache'), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

  beforeAll(async () => {
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{"name":"readme-examples","version":"1.0.0","private":true}\n');
    const pack = Bun.spawnSync(['npm', 'pack', ROOT, '--pack-destination', work], { cwd: work, env: ENV });
    expect(pack.exitCode).toBe(0);
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
    const install = Bun.spawnSync(['npm', 'install', '--save-dev', tarball], { cwd: project, env: ENV });
    expect(install.exitCode).toBe(0);
  }, 240_000);

  test('there are examples of every command, and only those needing a node or chains of your own are not run here', () => {
    expect(examples.length).toBeGreaterThan(10);
    expect(examples.filter(needsMore)).toEqual([
      'npx blocktrace diff before.json after.json --abi out',
      'npx blocktrace serve --upstream http://127.0.0.1:8546',
      'npx blocktrace capture --rpc http://127.0.0.1:8546 --block 120 --to 125 --out blocks.json',
    ]);
    expect(Bun.which('bun', { PATH: ENV.PATH })).toBeNull();
  });

  test.each(examples.filter((e) => !needsMore(e)))('%s', async (example) => {
    const dir = mkdtempSync(join(project, 'example-'));
    for (const path of example.match(/golden\/[\w./-]+/g) ?? []) cpSync(join(ROOT, path), join(dir, path), { recursive: true });
    if (example.includes('requests.txt')) writeFileSync(join(dir, 'requests.txt'), `${/echo '([^']*)'/.exec(readme)![1]}\n`);
    // serve listens until stopped: on any free port, and stopped once it says it serves the chain
    const serve = / serve /.test(example);
    // the debugger's terminal UI needs a terminal: its --json prints the same steps
    const command = serve ? example.replace('--port 8545', '--port 0') : example.startsWith('npx blocktrace debug ') ? `${example} --json --only-lines` : example;
    const proc = Bun.spawn(['setsid', 'sh', '-c', command], { cwd: dir, env: ENV, stdout: 'pipe', stderr: 'pipe' });
    let stderr = '';
    if (serve) {
      const reader = proc.stderr.getReader();
      while (!/\nchain builtin:\S+ \(anvil-corpus\): chainId/.test(stderr)) {
        const { value, done } = await reader.read();
        if (done) break;
        stderr += new TextDecoder().decode(value);
      }
      process.kill(-proc.pid, 'SIGTERM');
      reader.releaseLock();
    }
    const [stdout, rest, code] = await Promise.all([new Response(proc.stdout).text(), serve ? Promise.resolve('') : new Response(proc.stderr).text(), proc.exited]);
    stderr += rest;
    expect(stderr).not.toContain('    at ');
    if (serve) expect(stderr).toMatch(/blocktrace listening on http:\/\/127\.0\.0\.1:\d+\//);
    else {
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout.length).toBeGreaterThan(0);
    }
  }, 120_000);
});
