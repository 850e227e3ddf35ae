// The package as npm packs it, made once per content of what it carries (package.json, bin/, dist/,
// the docs and licences) and kept in node_modules/.cache/blocktrace-pack/, so the test files that
// install it into example projects share one `npm pack`. An example project gets it from that
// tarball with an npm cache of its own, offline: nothing can come from a registry.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../faces.ts';

const CACHE = join(ROOT, 'node_modules/.cache/blocktrace-pack');

function packedFiles(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  const out = ['package.json'];
  for (const entry of pkg.files) {
    const path = join(ROOT, entry);
    if (!existsSync(path)) continue;
    if (entry.endsWith('/')) out.push(...readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)));
    else out.push(path);
  }
  return out.map((f) => (f.startsWith('/') ? f : join(ROOT, f))).sort();
}

/** The path of a tarball of the package as it is now (packed, or taken from the cache). */
export async function packedTarball(): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256');
  for (const file of packedFiles()) hasher.update(file).update(readFileSync(file));
  const tarball = join(CACHE, `blocktrace-${hasher.digest('hex').slice(0, 16)}.tgz`);
  if (existsSync(tarball)) return tarball;
  mkdirSync(CACHE, { recursive: true });
  const temp = mkdtempSync(join(CACHE, 'pack-'));
  try {
    const proc = Bun.spawn(['npm', 'pack', ROOT, '--pack-destination', temp], { cwd: temp, stdout: 'ignore', stderr: 'pipe' });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`npm pack failed: ${stderr}`);
    // whole or absent: another test file may be packing the same content at the same moment
    renameSync(join(temp, readdirSync(temp).find((f) => f.endsWith('.tgz'))!), tarball);
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return tarball;
}

/**
 * An empty project at `dir` with `files` written and blocktrace installed from the tarball as a
 * devDependency (offline, an npm cache of its own); `links` are packages of this checkout's
 * node_modules linked in (the runners and their helpers: nothing is downloaded).
 */
export async function exampleProject(dir: string, files: Record<string, string>, links: readonly string[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'example', version: '1.0.0', private: true, type: 'module' })}\n`);
  const env = { PATH: process.env.PATH, HOME: dir, npm_config_cache: join(dir, '.npm-cache'), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  const proc = Bun.spawn(['npm', 'install', '--save-dev', await packedTarball()], { cwd: dir, env, stdout: 'ignore', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`npm install of the tarball failed: ${stderr}`);
  for (const name of links) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(join(target, '..'), { recursive: true });
    Bun.spawnSync(['ln', '-s', join(ROOT, 'node_modules', name), target]);
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}
