// `npm run build`: esbuild bundles src/ into one ESM file (dist/blocktrace.mjs, for Deno and Node),
// then `bun build --compile` makes dist/blocktrace, a single executable that needs no node_modules.
import { build } from 'esbuild';
import { join } from 'node:path';

const root = import.meta.dir;
const dist = join(root, 'dist');

await build({
  entryPoints: [join(root, 'src/cli.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'es2022',
  outfile: join(dist, 'blocktrace.mjs'),
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});

const compile = Bun.spawnSync(
  [process.execPath, 'build', '--compile', '--minify', '--bytecode', join(root, 'src/cli.ts'), '--outfile', join(dist, 'blocktrace')],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
);
if (compile.exitCode !== 0) {
  console.error('bun build --compile failed');
  process.exit(1);
}
console.error(`built ${join(dist, 'blocktrace.mjs')} and ${join(dist, 'blocktrace')}`);
