// `show` and the viewer (issue 17): `show` of the 200-transaction block printed in under 1 s after
// the load, and the page's first render of that block and of a transaction tree in it under 500 ms
// in headless Chromium. Run as a child of bench/run.ts (a fresh process); prints one JSON line.
//
//   bun bench/ui.ts FIXTURE BLOCK
//
// The page figures are taken as a person gets there: the block list opened first, then a click on
// the block (from the click to its transaction table) and on its first transaction (the client's
// own measure, from the route change to the call tree in the DOM).
import { existsSync } from 'node:fs';
import { AbiDecoder } from '../src/abi/decoder.ts';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { PLAIN } from '../src/show/render.ts';
import { show } from '../src/show/show.ts';
import { freePort } from './procs.ts';

export interface UiReport {
  readonly showMs: number;
  readonly showLines: number;
  /** undefined when Debian's chromium is not installed. */
  readonly blockPageMs?: number;
  readonly txTreeMs?: number;
}

const CHROMIUM = '/usr/bin/chromium';

async function main(): Promise<void> {
  const [fixture, block] = process.argv.slice(2) as [string, string];
  const ctx = createContext(await loadChain(fixture), { log: () => {} });
  const started = performance.now();
  const lines = await show(ctx, block, new AbiDecoder([]), PLAIN);
  const report: { -readonly [K in keyof UiReport]: UiReport[K] } = { showMs: performance.now() - started, showLines: lines.length };
  if (existsSync(CHROMIUM)) {
    const { chromium } = await import('playwright-core');
    const port = await freePort();
    const proc = Bun.spawn([process.execPath, 'src/cli.ts', 'serve', fixture, '--port', String(port)], { cwd: `${import.meta.dir}/..`, stdout: 'ignore', stderr: 'ignore' });
    try {
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 600; i++) {
        try {
          await fetch(`${url}/abi.json`);
          break;
        } catch {
          await Bun.sleep(100);
        }
      }
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
      try {
        const page = await browser.newPage();
        const n = Number(BigInt(block));
        // as a person gets there: the block list first, then a click on the block
        await page.goto(`${url}/`);
        await page.waitForSelector(`a[href="/block/${n}"]`);
        const t0 = performance.now();
        await page.click(`a[href="/block/${n}"]`);
        await page.waitForSelector('table.list td.status');
        report.blockPageMs = performance.now() - t0;
        await page.locator('table.list a').first().click();
        await page.waitForSelector('#tree summary');
        report.txTreeMs = Number(await page.evaluate('document.body.dataset.rendered'));
      } finally {
        await browser.close();
      }
    } finally {
      process.kill(proc.pid, 'SIGKILL');
      await proc.exited;
    }
  }
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
