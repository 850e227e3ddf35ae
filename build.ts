// `npm run compile`: esbuild bundles src/cli.ts into one ESM file (dist/blocktrace.mjs, for Deno and
// Node) and the library into dist/lib/ (the package's exports: index.mjs, the API, and vitest.mjs,
// jest.mjs, bun.mjs, the matchers' adapters, which import ./index.mjs; the types beside them), then `bun build --compile` makes dist/blocktrace, a single executable that needs no
// node_modules. `bun build.ts OUTDIR` writes to OUTDIR instead of dist/; `--bundle-only` stops after
// the ES module (`npm run bundle`: the committed dist/blocktrace.mjs, docs/build.md). The example
// chains (`type: 'text'` imports in src/fixture/builtin.ts) and the KZG trusted setup (dynamic
// imports in src/replay/kzg.ts) are inside both.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseTargets, runtimeFor, type Target } from './scripts/targets.ts';

const root = import.meta.dir;
const args = process.argv.slice(2);
// --bundle-only: the ES module alone (`npm run bundle`: the committed one the package and the Action run on Node)
const bundleOnly = args.includes('--bundle-only');
// --targets all|linux-arm64,…: executables for those platforms, blocktrace-<os>-<arch>[.exe], and SHA256SUMS
const targetsAt = args.indexOf('--targets');
let targets: Target[] | undefined;
try {
  targets = targetsAt === -1 ? undefined : parseTargets(args[targetsAt + 1] ?? '');
} catch (err) {
  console.error(`build.ts: ${(err as Error).message}`);
  process.exit(2);
}
const dist = resolve(args.find((a, i) => !a.startsWith('--') && (targetsAt === -1 || i !== targetsAt + 1)) ?? join(root, 'dist'));
const entry = join(root, 'src/cli.ts');
const bundle = join(dist, 'blocktrace.mjs');
const binary = join(dist, 'blocktrace');

await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  outfile: bundle,
  // the paths in the bundle's comments are relative to the checkout, wherever the build runs from
  // (the committed dist/blocktrace.mjs is compared with a fresh build: test/bundle.test.ts)
  absWorkingDir: root,
  // node_modules paths as written, not the real path of a symlinked node_modules (a worktree's)
  preserveSymlinks: true,
  // CommonJS dependencies call require() for node: builtins; an ES module has no require of its own
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  // Elysia imports file-type only to check uploaded files' types, which no route here takes; bundled,
  // its node:stream imports would be loaded at every start (some 16 ms under Bun)
  external: ['file-type'],
  logLevel: 'warning',
});

// The library: the API is a bundle of its own (no code splitting with the command: dist/blocktrace.mjs
// stays one file, as docs/build.md and the Action have it); each adapter is a few lines that import
// ./index.mjs, so the matchers, configure() and the chains share one module and its settings.
const lib = join(dist, 'lib');
const common = { bundle: true, format: 'esm', platform: 'node', target: 'es2022', absWorkingDir: root, preserveSymlinks: true, logLevel: 'warning' } as const;
await build({ ...common, entryPoints: [join(root, 'src/api/index.ts')], outfile: join(lib, 'index.mjs'), banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" }, external: ['file-type'] });
await build({
  ...common,
  entryPoints: ['vitest', 'jest', 'bun'].map((name) => join(root, `src/api/${name}.ts`)),
  outdir: lib,
  outExtension: { '.js': '.mjs' },
  external: ['vitest', 'bun:test'],
  plugins: [{ name: 'api-index', setup: (b) => b.onResolve({ filter: /^\.\/index\.ts$/ }, () => ({ path: './index.mjs', external: true })) }],
});
mkdirSync(lib, { recursive: true });
for (const name of ['index', 'vitest', 'jest', 'bun']) copyFileSync(join(root, `src/api/types/${name}.d.ts`), join(lib, `${name}.d.ts`));

const mib = (path: string): string => `${(statSync(path).size / 2 ** 20).toFixed(1)} MiB`;
if (bundleOnly) {
  console.error(`built ${bundle} (${mib(bundle)}) and ${lib}/ (index.mjs ${mib(join(lib, 'index.mjs'))})`);
  process.exit(0);
}

// --minify --bytecode: the fastest start-up measured (README.md, "One executable…"). Bun's compiled
// executables read a .env and a bunfig.toml from the directory they run in unless told not to: the
// first would change blocktrace's environment (its cache directory, say), the second runs its
// `preload` scripts, so blocktrace run in a directory of someone else's would run their code. The sender
// recovery worker and the fixture key's worker are further entry points, found inside as
// ./replay/senderWorker.ts (src/replay/senders.ts) and ./cache/keyWorker.ts (src/cache/fixtureKey.ts);
// the Deno/Node bundle does both on the main thread.
const worker = join(root, 'src/replay/senderWorker.ts');
const keyWorker = join(root, 'src/cache/keyWorker.ts');
const COMPILE = [process.execPath, 'build', '--compile', '--minify', '--bytecode', '--external', 'file-type', '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig'];

function compile(outfile: string, cross: readonly string[] = []): void {
  const run = Bun.spawnSync([...COMPILE, ...cross, entry, worker, keyWorker, '--outfile', outfile], { cwd: root, stdout: 'ignore', stderr: 'inherit' });
  if (run.exitCode !== 0) {
    console.error(`bun build --compile ${cross.join(' ')} failed`);
    process.exit(1);
  }
}

if (targets === undefined) {
  compile(binary);
  console.error(`built ${bundle} (${mib(bundle)}) and ${binary} (${mib(binary)})`);
} else {
  // each target's runtime from npm (scripts/targets.ts), kept for the next build
  const cache = join(root, 'node_modules/.cache/blocktrace-runtimes');
  const sums: string[] = [];
  for (const target of targets) {
    const file = `blocktrace-${target.name}${target.exe ? '.exe' : ''}`;
    const out = join(dist, file);
    compile(out, [`--target=${target.bun}`, `--compile-executable-path=${runtimeFor(target, cache)}`]);
    sums.push(`${new Bun.CryptoHasher('sha256').update(readFileSync(out)).digest('hex')}  ${file}`);
    console.error(`built ${out} (${mib(out)})`);
  }
  writeFileSync(join(dist, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  console.error(`wrote ${join(dist, 'SHA256SUMS')}`);
}
