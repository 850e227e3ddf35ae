// The platforms `npm run compile -- --targets …` compiles the executable for, and where each one's Bun
// runtime comes from: the npm registry's @oven/bun-<platform> package of the Bun that builds (the
// same version, so the embedded bytecode matches), packed and unpacked once into a cache directory.
// The host's own platform uses the running Bun.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface Target {
  /** `linux-arm64`: the name in `blocktrace-<name>[.exe]`. */
  readonly name: string;
  /** Bun's --target. */
  readonly bun: string;
  /** The npm package that holds that runtime. */
  readonly pkg: string;
  readonly exe: boolean;
}

export const TARGETS: readonly Target[] = [
  { name: 'linux-x64', bun: 'bun-linux-x64', pkg: '@oven/bun-linux-x64', exe: false },
  { name: 'linux-arm64', bun: 'bun-linux-arm64', pkg: '@oven/bun-linux-aarch64', exe: false },
  { name: 'darwin-x64', bun: 'bun-darwin-x64', pkg: '@oven/bun-darwin-x64', exe: false },
  { name: 'darwin-arm64', bun: 'bun-darwin-arm64', pkg: '@oven/bun-darwin-aarch64', exe: false },
  { name: 'windows-x64', bun: 'bun-windows-x64', pkg: '@oven/bun-windows-x64', exe: true },
];

/** `all`, or names separated by commas; throws naming an unknown one. */
export function parseTargets(list: string): Target[] {
  if (list === 'all') return [...TARGETS];
  return list.split(',').map((name) => {
    const target = TARGETS.find((t) => t.name === name.trim());
    if (target === undefined) throw new Error(`--targets: unknown platform ${JSON.stringify(name)} (${TARGETS.map((t) => t.name).join(', ')}, or all)`);
    return target;
  });
}

const host = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** The Bun runtime for `target`: the running one on its own platform, else unpacked from npm into `cache`. */
export function runtimeFor(target: Target, cache: string): string {
  if (target.name === host) return process.execPath;
  const dir = join(cache, `${target.pkg.replace('/', '+')}-${Bun.version}`);
  const binary = join(dir, 'package/bin', target.exe ? 'bun.exe' : 'bun');
  if (existsSync(binary)) return binary;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const packed = Bun.spawnSync(['npm', 'pack', `${target.pkg}@${Bun.version}`, '--pack-destination', dir, '--silent'], { stdout: 'ignore', stderr: 'inherit' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  if (packed.exitCode !== 0 || tarball === undefined) throw new Error(`npm pack ${target.pkg}@${Bun.version} failed`);
  const unpacked = Bun.spawnSync(['tar', 'xzf', join(dir, tarball), '-C', dir], { stderr: 'inherit' });
  rmSync(join(dir, tarball), { force: true });
  if (unpacked.exitCode !== 0 || !existsSync(binary)) throw new Error(`${target.pkg}@${Bun.version}: no ${binary} in the package`);
  return binary;
}
