// The trace viewer as a person uses it: `blocktrace serve` (a real process on 127.0.0.1) opened in
// headless Chromium (Debian's chromium, driven by playwright-core), clicked through from the block
// list to a failing transaction of the shipped cancun-devnet chain, whose revert reason and decoded
// call must show; a screenshot is saved under a temp dir. Debian's chromium is installed with apt
// when missing; only where it cannot be installed is the browser test skipped, saying why.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { BUNDLE_PATH, bundleClient } from '../src/ui/build.ts';
import { freePort } from './helpers/anvil.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const CHROMIUM = '/usr/bin/chromium';
const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const SLOW = 120_000;

function ensureChromium(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const apt = Bun.spawnSync(['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'], { stdout: 'ignore', stderr: 'pipe' });
  if (apt.exitCode !== 0 || !existsSync(CHROMIUM)) {
    return `Debian's chromium is not installed and apt-get could not install it: ${new TextDecoder().decode(apt.stderr).trim().split('\n').pop() ?? ''}`;
  }
  return undefined;
}

const missing = ensureChromium();
if (missing !== undefined) console.warn(`test/ui.test.ts: browser test skipped: ${missing}`);

interface Served {
  readonly url: string;
  stop(): Promise<void>;
}

async function serve(args: readonly string[]): Promise<Served> {
  const port = await freePort();
  const proc = Bun.spawn([BUN, CLI, 'serve', CANCUN, '--port', String(port), ...args], { cwd: ROOT, stdout: 'ignore', stderr: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' });
      break;
    } catch (err) {
      if (i > 300 || proc.exitCode !== null) throw new Error(`serve did not start: ${(err as Error).message}`);
      await Bun.sleep(100);
    }
  }
  return {
    url,
    stop: async () => {
      process.kill(proc.pid, 'SIGKILL');
      await proc.exited;
    },
  };
}

describe('the viewer page', () => {
  test('the committed bundle is what src/ui/build.ts makes from src/ui/client.ts now', async () => {
    expect(readFileSync(BUNDLE_PATH, 'utf8')).toBe(await bundleClient());
  }, SLOW);

  test('GET / is the page, GET /abi.json the artifacts; with --no-ui, 405 and 404 as before; POST / unchanged', async () => {
    const withUi = await serve(['--abi', join(ROOT, 'golden/fixtures/cancun-devnet/out')]);
    const noUi = await serve(['--no-ui']);
    try {
      const page = await fetch(`${withUi.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await page.text();
      expect(html).toContain('<main id="main">');
      // nothing loaded from elsewhere: no external script, style, image or font
      expect(html).not.toMatch(/(src|href)=["']?https?:/i);
      expect(html).not.toMatch(/@import|url\(\s*["']?https?:/i);
      const abi = (await (await fetch(`${withUi.url}/abi.json`)).json()) as { name: string }[];
      expect(abi.map((a) => a.name)).toContain('Probe');
      expect((await fetch(`${noUi.url}/`)).status).toBe(405);
      expect((await fetch(`${noUi.url}/abi.json`)).status).toBe(404);
      const body = '{"jsonrpc":"2.0","id":7,"method":"eth_blockNumber"}';
      const answers = await Promise.all([withUi, noUi].map(async (s) => (await fetch(`${s.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text()));
      expect(answers[0]).toBe(answers[1]!);
    } finally {
      await withUi.stop();
      await noUi.stop();
    }
  }, SLOW);
});

describe.skipIf(missing !== undefined)('the viewer in headless Chromium', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    served = await serve(['--abi', join(ROOT, 'golden/fixtures/cancun-devnet/out')]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      // playwright starts Chromium with a new empty profile of its own (a fresh --user-data-dir)
    });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  }, SLOW);

  test('blocks → block 4 → its first failing transaction: status, decoded call, revert reason, state changes', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${served.url}/`);
    await page.waitForSelector('table.list');
    expect(await page.textContent('#chain')).toContain('chain 7100001');
    await page.click('a[href="#/block/4"]');
    await page.waitForSelector('tr.failed');
    expect(await page.locator('tr.failed').count()).toBeGreaterThan(5);
    await page.locator('tr.failed a').first().click();
    await page.waitForSelector('#tree summary');
    expect(await page.textContent('#status')).toBe('reverted');
    expect(await page.textContent('#tree')).toContain('Probe::failString()');
    expect(await page.textContent('#tree .result.failed')).toBe('← revert: Probe: string reason');
    await page.waitForSelector('#diff table.diff');
    expect(await page.textContent('#diff')).toContain('nonce');
    const shot = join(mkdtempSync(join(tmpdir(), 'blocktrace-ui-')), 'failing-tx.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(existsSync(shot)).toBe(true);
    expect(errors).toEqual([]);
  }, SLOW);

  test('a tree collapses: a frame with calls under it hides them when its summary is clicked', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}/#/tx/0x0f0ea2be7ae319eb62856417ddc52cf9a42870112606dae954029d8caa31d139`);
    await page.waitForSelector('#tree summary');
    expect(await page.textContent('#tree')).toContain('Probe::allKinds(');
    expect(await page.textContent('#tree')).toContain('emit SubcallResult(');
    const inner = page.locator('#tree details details').first();
    expect(await inner.isVisible()).toBe(true);
    await page.locator('#tree > details > summary').click();
    expect(await inner.isVisible()).toBe(false);
  }, SLOW);
});

describe.skipIf(missing !== undefined)('the viewer: not found, search, paging, transaction facts, a phone screen', () => {
  let browser: Browser;
  let served: Served;
  beforeAll(async () => {
    served = await serve(['--abi', join(ROOT, 'golden/fixtures/cancun-devnet/out')]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  }, SLOW);

  test('a missing block or transaction is a "not found" page, not a script error', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    for (const hash of ['#/block/999', `#/tx/0x${'ab'.repeat(32)}`, '#/block/nope']) {
      await page.goto(`${served.url}/${hash}`);
      await page.waitForSelector('#notfound');
      expect(await page.textContent('#main')).toContain('is not on this chain');
    }
    expect(errors).toEqual([]);
  }, SLOW);

  test('the search box takes a block number, a block hash, a transaction hash and an address', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}/`);
    await page.waitForSelector('table.list');
    const block4 = (await (await fetch(`${served.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x4",false]}' })).json()) as { result: { hash: string; transactions: string[] } };
    const cases: [string, string][] = [
      ['3', '#/block/3'],
      [block4.result.hash, '#/block/4'],
      [block4.result.transactions[0]!, `#/tx/${block4.result.transactions[0]}`],
      ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '#/address/0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'],
    ];
    for (const [query, hash] of cases) {
      await page.fill('#search input', query);
      await page.press('#search input', 'Enter');
      await page.waitForFunction((h) => (globalThis as unknown as { location: { hash: string } }).location.hash === h, hash);
    }
    await page.waitForSelector('table.facts');
    expect(await page.textContent('#main')).toContain('nonce');
  }, SLOW);

  test('blocks page beyond the latest 50', async () => {
    const page = await browser.newPage();
    await page.goto(`${served.url}/#/blocks/5`);
    await page.waitForSelector('table.list');
    const rows = await page.locator('table.list tr').count();
    expect(rows).toBe(1 + 6); // blocks 5..0 and the header
    expect(await page.textContent('.pager')).toContain('newer');
  }, SLOW);

  test('a transaction page: from, to, value, nonce, type, gas price, fee, status, decoded input, logs; fits 375 px', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(`${served.url}/#/tx/0x0f0ea2be7ae319eb62856417ddc52cf9a42870112606dae954029d8caa31d139`);
    await page.waitForSelector('#facts');
    const facts = (await page.textContent('#facts'))!;
    for (const field of ['status', 'from', 'to', 'value', 'nonce', 'type', 'gas price', 'fee', 'input']) expect(facts).toContain(field);
    expect(facts).toContain('allKinds(');
    expect(await page.locator('#logs li').count()).toBeGreaterThan(0);
    await page.waitForSelector('#diff table.diff');
    const width = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    const shot = join(mkdtempSync(join(tmpdir(), 'blocktrace-ui-')), 'phone.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(existsSync(shot)).toBe(true);
  }, SLOW);
});
