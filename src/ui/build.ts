// Bundles the browser viewer (src/ui/client.ts, with the ABI decoder and viem's ABI functions) into
// one script with esbuild. The bundle is kept in the repository (src/ui/client.bundle.txt) so that
// `serve`, the esbuild bundle and the compiled binary all carry it with no build step of their own;
// test/ui.test.ts checks that it is what this build makes now.
//
//   bun src/ui/build.ts          rewrites src/ui/client.bundle.txt
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUNDLE_PATH = join(import.meta.dir, 'client.bundle.txt');

export async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dir, 'client.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

if (import.meta.main) {
  const text = await bundleClient();
  writeFileSync(BUNDLE_PATH, text);
  process.stderr.write(`wrote ${BUNDLE_PATH} (${(text.length / 1024).toFixed(0)} KiB)\n`);
}
