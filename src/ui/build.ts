// Bundles the browser viewer (src/ui/client.ts, with the ABI decoder and viem's ABI functions) and
// the script of the HTML report (src/ui/report.ts) each into one script with esbuild. The bundles are
// kept in the repository (src/ui/*.bundle.txt) so that `serve`, `check`/`diff --report`, the esbuild
// bundle and the compiled binary all carry them with no build step of their own; test/ui.test.ts and
// test/htmlReport.test.ts check that they are what this build makes now.
//
//   bun src/ui/build.ts          rewrites src/ui/client.bundle.txt and src/ui/report.bundle.txt
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BUNDLE_PATH = join(import.meta.dir, 'client.bundle.txt');
export const REPORT_BUNDLE_PATH = join(import.meta.dir, 'report.bundle.txt');

async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(import.meta.dir, entry)],
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

export const bundleClient = (): Promise<string> => bundle('client.ts');
export const bundleReport = (): Promise<string> => bundle('report.ts');

if (import.meta.main) {
  for (const [path, text] of [[BUNDLE_PATH, await bundleClient()], [REPORT_BUNDLE_PATH, await bundleReport()]] as const) {
    writeFileSync(path, text);
    process.stderr.write(`wrote ${path} (${(text.length / 1024).toFixed(0)} KiB)\n`);
  }
}
