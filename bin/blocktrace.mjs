#!/usr/bin/env node
// `blocktrace` as npm installs it. The installed package carries the bundle (dist/blocktrace.mjs,
// made by `npm pack`'s prepack) and runs it on the Node that runs this file: no Bun needed, the same
// bytes as under Bun (docs/build.md). In a checkout (src/ beside this file) it runs the sources with
// the Bun devDependency, as `npx blocktrace` always has, so a stale dist/ is never what answers.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = join(root, 'src/cli.ts');

if (existsSync(sources)) {
  const local = join(root, 'node_modules/.bin/bun');
  const child = spawn(existsSync(local) ? local : 'bun', [sources, ...process.argv.slice(2)], { stdio: 'inherit' });
  // the child owns the terminal's signals too; pass on the ones sent to this process alone
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (err) => {
    process.stderr.write(`blocktrace: cannot run Bun for the sources (${err.message}); run npm ci, or npm run build and node dist/blocktrace.mjs\n`);
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
} else {
  await import(pathToFileURL(join(root, 'dist/blocktrace.mjs')).href);
}
