// `npm run build`: esbuild bundles src/cli.ts into one ESM file (dist/blocktrace.mjs, for Deno and
// Node), then `bun build --compile` makes dist/blocktrace, a single executable that needs no
// node_modules. `bun build.ts OUTDIR` writes to OUTDIR instead of dist/; `--bundle-only` stops after
// the ES module. The shipped fixture (a
// `type: 'text'` import in src/cli/defaultFixture.ts) and the KZG trusted setup (dynamic imports in
// src/replay/kzg.ts) are inside both.
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = import.meta.dir;
const args = process.argv.slice(2);
// --bundle-only: the ES module alone (npm pack's prepack: the package runs it on Node)
const bundleOnly = args.includes('--bundle-only');
const dist = resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'dist'));
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
  // CommonJS dependencies call require() for node: builtins; an ES module has no require of its own
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  // Elysia imports file-type only to check uploaded files' types, which no route here takes; bundled,
  // its node:stream imports would be loaded at every start (some 16 ms under Bun)
  external: ['file-type'],
  logLevel: 'warning',
});

const mib = (path: string): string => `${(statSync(path).size / 2 ** 20).toFixed(1)} MiB`;
if (bundleOnly) {
  console.error(`built ${bundle} (${mib(bundle)})`);
  process.exit(0);
}

// --minify --bytecode: the fastest start-up measured (README.md, "One executable…"). Bun's compiled
// executables read a .env and a bunfig.toml from the directory they run in unless told not to: the
// first would change blocktrace's environment (its cache directory, say), the second runs its
// `preload` scripts, so blocktrace run in a directory of someone else's would run their code. The sender
// recovery worker is a second entry point, found inside as ./replay/senderWorker.ts
// (src/replay/senders.ts); the Deno/Node bundle recovers senders on the main thread.
const worker = join(root, 'src/replay/senderWorker.ts');
const compile = Bun.spawnSync(
  [process.execPath, 'build', '--compile', '--minify', '--bytecode', '--external', 'file-type', '--no-compile-autoload-dotenv', '--no-compile-autoload-bunfig', entry, worker, '--outfile', binary],
  { cwd: root, stdout: 'ignore', stderr: 'inherit' },
);
if (compile.exitCode !== 0) {
  console.error('bun build --compile failed');
  process.exit(1);
}
console.error(`built ${bundle} (${mib(bundle)}) and ${binary} (${mib(binary)})`);
