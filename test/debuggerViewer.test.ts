// The viewer's Debug view as a person uses it: `blocktrace serve golden/debugger/fixture.json --abi
// golden/debugger/foundry/out` (a real process on 127.0.0.1) opened in headless Chromium (Debian's
// chromium, driven by playwright-core). On the scenario's require failing inside an internal
// function: r jumps to the revert (its line, the expression marked, the call stack), k steps back
// one, the address bar's URL reopens the same step; a click on a line runs to it and o steps over
// the internal call on it; a run of 100,284 steps lists only the rows in view and fetches pages as
// the list scrolls; a bad step number says so; at 375 px nothing scrolls sideways; no console
// error. Screenshots of the revert step at 1280×900 and 375×812 are written under a temp dir (or
// $BLOCKTRACE_SCREENSHOTS), from which docs/debugger-viewer*.png were copied by hand.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { chromiumMissing, launchChromium, type Served, serveFixture } from './helpers/browser.ts';
import { ROOT } from './faces.ts';

const SLOW = 120_000;
const DIR = join(ROOT, 'golden/debugger');
interface Scenario {
  hash: string;
  fails?: { file: string; line: number; expression: string; internalStack: string[] };
}
const TXS = JSON.parse(readFileSync(join(DIR, 'transactions.json'), 'utf8')) as Record<string, Scenario>;
const FAILING = TXS['withdrawOverLimit']!;
const FAILS = FAILING.fails!;
/** 1,000 rounds of a loop: 100,284 steps. */
const LOOP = TXS['accrue']!;

const missing = chromiumMissing();
if (missing !== undefined) console.warn(`test/debuggerViewer.test.ts: browser tests skipped: ${missing}`);

/** What the Debug view shows now, read from the page (a string: the test's own types have no DOM). */
interface Shown {
  step: number;
  busy: boolean;
  path: string;
  facts: string;
  file: string | null;
  line: number;
  marked: string | null;
  frames: string[];
}
const SHOWN = `(() => {
  const q = (s) => document.querySelector(s);
  const root = q('#debug');
  return {
    step: Number(root?.dataset.step ?? -1),
    busy: root?.dataset.busy !== undefined,
    path: location.pathname,
    facts: q('#dbg-facts')?.textContent ?? '',
    file: q('#dbg-source .file')?.textContent ?? null,
    line: Number(q('#dbg-source .line.current')?.dataset.line ?? 0),
    marked: q('#dbg-source .line.current mark')?.textContent ?? null,
    frames: [...document.querySelectorAll('#dbg-frames .label')].map((e) => e.textContent),
  };
})()`;
const shown = (page: Page): Promise<Shown> => page.evaluate<Shown>(SHOWN);

/** Waits until every move asked for is shown and `test` holds of what is shown. */
async function until(page: Page, test: (s: Shown) => boolean, what: string): Promise<Shown> {
  const end = Date.now() + 30_000;
  let last = await shown(page);
  while (Date.now() < end) {
    if (last.step >= 0 && !last.busy && test(last)) return last;
    await Bun.sleep(50);
    last = await shown(page);
  }
  throw new Error(`the Debug view never showed ${what}; it shows ${JSON.stringify(last)}`);
}

async function rpc<T>(served: Served, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(`${served.url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: T }).result;
}

describe.skipIf(missing !== undefined)('the Debug view in headless Chromium', () => {
  let browser: Browser;
  let served: Served;
  const shots = process.env['BLOCKTRACE_SCREENSHOTS'] ?? mkdtempSync(join(tmpdir(), 'blocktrace-debugger-viewer-'));
  mkdirSync(shots, { recursive: true });
  const errors: string[] = [];
  beforeAll(async () => {
    served = await serveFixture(join(DIR, 'fixture.json'), ['--abi', join(DIR, 'foundry/out'), '--no-cache']);
    browser = await launchChromium();
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  }, SLOW);

  /** A page at `path`, its console errors and script errors collected in `errors`. */
  const open = async (path: string, width = 1280, height = 900, watch?: (page: Page) => void): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('console', (m) => void (m.type() === 'error' && errors.push(`${path}: ${m.text()}`)));
    page.on('pageerror', (e) => errors.push(`${path}: ${e.message}`));
    watch?.(page);
    await page.goto(`${served.url}${path}`);
    return page;
  };

  test('r jumps to the revert: its line, its expression marked, the call stack; k steps back one; the URL reopens that step', async () => {
    const { revert, steps } = await rpc<{ revert: number; steps: number }>(served, 'blocktrace_debugTransaction', [FAILING.hash]);
    const page = await open(`/tx/${FAILING.hash}/debug`);
    const first = await until(page, (s) => s.step === 0, 'step 0');
    expect(first.facts).toContain(`step 0 of ${steps}`);
    await page.keyboard.press('r');
    const atRevert = await until(page, (s) => s.step !== 0, 'the revert');
    expect(atRevert).toMatchObject({ step: revert, file: FAILS.file, line: FAILS.line, marked: FAILS.expression, frames: FAILS.internalStack, path: `/tx/${FAILING.hash}/debug/${revert}` });
    expect(atRevert.facts).toContain(`step ${revert} of ${steps}`);
    expect(await page.textContent('#dbg-says')).toBe('reverts: Error(message: "Vault: over limit")');
    // the scenario's builds have no ethdebug output: the locals say so, nothing guessed
    expect(await page.textContent('#dbg-locals')).toBe('local variables: not recoverable: the build has no ethdebug output (solc with viaIR, settings.experimental and debug.debugInfo ["ethdebug"])');
    await page.screenshot({ path: join(shots, 'debugger-viewer.png') });
    await page.keyboard.press('k');
    const back = await until(page, (s) => s.step !== revert, 'the step before the revert');
    expect([back.step, back.path]).toEqual([revert - 1, `/tx/${FAILING.hash}/debug/${revert - 1}`]);
    expect(back.facts).toContain(`step ${revert - 1} of ${steps}`);
    // the address bar's URL, opened anew, shows the same step
    const again = await open(back.path);
    expect(await until(again, () => true, `step ${revert - 1}`)).toEqual(back);
    expect(errors).toEqual([]);
  }, SLOW);

  test('a click on line 90 runs to it; o steps over _fee on it to line 91, the call stack never showing Vault._fee', async () => {
    const page = await open(`/tx/${FAILING.hash}/debug`);
    await until(page, (s) => s.step === 0, 'step 0');
    await page.click('#dbg-source .line[data-line="90"]');
    const at90 = await until(page, (s) => s.line === 90, 'line 90');
    expect([at90.file, at90.marked, at90.frames]).toEqual([FAILS.file, '_fee(amount)', ['Vault.withdraw', 'Vault._checkLimit']]);
    // n would go into _fee: what o must not show on its way
    const into = await rpc<{ functions: string[] }>(served, 'blocktrace_debugStep', [FAILING.hash, at90.step, { move: 'nextLine' }]);
    expect(into.functions).toContain('Vault._fee');
    await page.evaluate(`(() => {
      window.framesSeen = [];
      new MutationObserver(() => window.framesSeen.push(document.querySelector('#dbg-frames')?.textContent ?? '')).observe(document.querySelector('#debug'), { childList: true, subtree: true, characterData: true });
    })()`);
    await page.keyboard.press('o');
    const over = await until(page, (s) => s.step !== at90.step, 'the step over');
    expect([over.line, over.frames]).toEqual([91, ['Vault.withdraw', 'Vault._checkLimit']]);
    expect(over.step).toBeGreaterThan(at90.step);
    const seen = await page.evaluate<string[]>('window.framesSeen');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => text.includes('Vault._fee'))).toEqual([]);
    expect(errors).toEqual([]);
  }, SLOW);

  test('at 375 px the panes stack and nothing scrolls sideways: step 0, a step without source, the revert', async () => {
    const { revert } = await rpc<{ revert: number }>(served, 'blocktrace_debugTransaction', [FAILING.hash]);
    const page = await open(`/tx/${FAILING.hash}/debug/0`, 375, 812);
    const width = (): Promise<number> => page.evaluate<number>('document.documentElement.scrollWidth');
    await until(page, (s) => s.step === 0, 'step 0');
    expect(await width()).toBeLessThanOrEqual(375);
    // step 100 is code the compiler generated: no line, the opcodes around it
    await page.goto(`${served.url}/tx/${FAILING.hash}/debug/100`);
    await until(page, (s) => s.step === 100, 'step 100');
    expect(await page.textContent('#dbg-source .nosource')).toContain('compiler-generated code');
    expect(await page.textContent('#dbg-source .op.current')).toContain('100');
    expect(await width()).toBeLessThanOrEqual(375);
    await page.goto(`${served.url}/tx/${FAILING.hash}/debug/${revert}`);
    await until(page, (s) => s.step === revert && s.line === FAILS.line, 'the revert');
    expect(await width()).toBeLessThanOrEqual(375);
    // one column: the call stack under the source, the memory under it all
    const [source, frames, memory] = await Promise.all(['#dbg-source-pane', '#dbg-frames-pane', '#dbg-memory-pane'].map(async (s) => (await page.locator(s).boundingBox())!));
    expect(frames.x).toBe(source.x);
    expect(frames.y).toBeGreaterThan(source.y + source.height - 1);
    expect(memory.y).toBeGreaterThan(frames.y);
    await page.screenshot({ path: join(shots, 'debugger-viewer-375.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, SLOW);

  test('100,284 steps: the list holds only the rows in view and fetches pages as it scrolls; a click on a row goes to its step', async () => {
    const { steps } = await rpc<{ steps: number }>(served, 'blocktrace_debugTransaction', [LOOP.hash]);
    expect(steps).toBeGreaterThan(100_000);
    let asked = 0;
    const page = await open(`/tx/${LOOP.hash}/debug/50000`, 1280, 900, (p) =>
      p.on('request', (r) => {
        const body = r.method() === 'POST' ? (r.postDataJSON() as { method?: string; params?: unknown[] }) : undefined;
        if (body?.method === 'blocktrace_debugSteps') asked += Number(body.params![2]);
      }),
    );
    await until(page, (s) => s.step === 50000, 'step 50000');
    /** The rows in the DOM: [step, pc, op]. */
    const rows = (): Promise<[string, string, string][]> => page.evaluate(`[...document.querySelectorAll('#dbg-steps .row')].map((r) => [r.dataset.step, r.querySelector('.pc').textContent, r.querySelector('.op').textContent])`);
    expect((await rows()).length).toBeLessThan(40);
    expect(await page.getAttribute('#dbg-steps .row.current', 'data-step')).toBe('50000');
    // to the end of the list: its last steps, fetched when they come into view
    await page.locator('#dbg-steps').evaluate((list) => void (list.scrollTop = list.scrollHeight));
    await page.waitForSelector(`#dbg-steps .row[data-step="${steps - 1}"] .op:not(:empty)`);
    const end = await rows();
    expect(end.length).toBeLessThan(40);
    expect(end.at(-1)).toEqual([String(steps - 1), expect.stringMatching(/^\d+$/), 'RETURN']);
    // pages of steps, not the run: what was in view and around it
    expect(asked).toBeGreaterThan(0);
    expect(asked).toBeLessThanOrEqual(4 * 500);
    const target = Number(end[2]![0]);
    await page.locator('#dbg-steps .row').nth(2).click();
    const picked = await until(page, (s) => s.step !== 50000, 'the step clicked');
    expect([picked.step, picked.path]).toEqual([target, `/tx/${LOOP.hash}/debug/${target}`]);
    expect(await page.getAttribute('#dbg-steps .row.current', 'data-step')).toBe(String(picked.step));
    expect(errors).toEqual([]);
  }, SLOW);

  test('a step the transaction does not have is a clear message; the transaction page links to the Debug view and to the revert', async () => {
    const { revert, steps } = await rpc<{ revert: number; steps: number }>(served, 'blocktrace_debugTransaction', [FAILING.hash]);
    const page = await browser.newPage();
    for (const step of [String(steps), '99999999', 'x1']) {
      // (the server answers /debug/x1 with the viewer's page as a 404, which the console reports)
      await page.goto(`${served.url}/tx/${FAILING.hash}/debug/${step}`);
      await page.waitForSelector('#dbg-bad-step');
      expect(await page.textContent('#dbg-bad-step')).toBe(`"${step}" is not a step of this transaction: it has ${steps} steps, numbered 0 to ${steps - 1}.`);
    }
    // a transaction the chain does not have: one line saying so
    await page.goto(`${served.url}/tx/0x${'ab'.repeat(32)}/debug`);
    await page.waitForFunction(
      (text) => (globalThis as unknown as { document: { getElementById(id: string): { innerText: string } | null } }).document.getElementById('main')?.innerText.includes(text) === true,
      `Transaction 0x${'ab'.repeat(32)} is not on this chain.`,
    );
    const tx = await open(`/tx/${FAILING.hash}`);
    await tx.waitForSelector('.debug-links');
    expect(await tx.getAttribute('.debug-links a >> text=Debug', 'href')).toBe(`/tx/${FAILING.hash}/debug`);
    await tx.click('.debug-links >> text=Debug the revert');
    const atRevert = await until(tx, (s) => s.step === revert, 'the revert');
    expect([atRevert.line, atRevert.path]).toEqual([FAILS.line, `/tx/${FAILING.hash}/debug/${revert}`]);
    expect(errors).toEqual([]);
  }, SLOW);
});
