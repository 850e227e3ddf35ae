#!/usr/bin/env node
// `blocktrace` as npm installs it. The package carries the bundle (dist/blocktrace.mjs, committed
// and kept equal to a build of the sources by test/bundle.test.ts), so an install from the registry,
// a tarball or a git URL runs it on the Node that runs this file: no Bun, no build, no install script
// (docs/build.md). In a checkout with its devDependencies (src/ and the Bun devDependency beside
// this file) it runs the sources with Bun, as `npx blocktrace` always has, so an edit answers at once.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'src/cli.ts');
const bun = join(root, 'node_modules/.bin/bun');
const bundle = join(root, 'dist/blocktrace.mjs');

if (existsSync(sources) && existsSync(bun)) {
  const child = spawn(bun, [sources, ...process.argv.slice(2)], { stdio: 'inherit' });
  // the child owns the terminal's signals too; pass on the ones sent to this process alone
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    process.stderr.write(`blocktrace: cannot run Bun for the sources (${err.message}); run npm ci, or node dist/blocktrace.mjs\n`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      // end as the child did: by the same signal, with this process's own handlers gone
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    else process.exit(code ?? 1);
  });
} else if (existsSync(bundle)) {
  await import(pathToFileURL(bundle).href);
} else {
  process.stderr.write(`blocktrace: ${bundle} is missing, so this install of blocktrace cannot run; install it again (npm i -D blocktrace, a release tarball, or a git URL of a commit that carries dist/), or in a checkout run npm ci\n`);
  process.exit(2);
}
