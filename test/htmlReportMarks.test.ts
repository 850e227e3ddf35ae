// The reports people read (issue 47, item 5), on a real failing `check`: go-ethereum's recorded
// callTracer answer with logs (execution-apis PR 855, golden/execution-apis-pr855), copied to a temp
// dir and changed there in four places: the top call's gasUsed, one digit inside the long output of a
// STATICCALL (shown as its 32-byte words), one letter of a revert reason, and the first call removed.
// The text report puts carets under the characters that differ and gas in decimal with its change;
// the HTML report's index says what kind of difference the case has and how many, and its table
// marks the differing characters (<del> on the recording's side, <ins> on ours), shows gas in
// decimal, and gives the values the width: opened in headless Chromium at 1280 and 375 px.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { ReportData } from '../src/ui/reportData.ts';
import { ROOT, runHarness } from './faces.ts';

const SLOW = 120_000;
const CHROMIUM = '/usr/bin/chromium';
const CHAIN = join(ROOT, 'golden/execution-apis-pr855');
const RECORDED = join(CHAIN, 'debug_traceTransaction/calltracer-with-log.io');
const work = mkdtempSync(join(tmpdir(), 'blocktrace-marks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** `from` replaced by `to` in `text`, where `from` occurs exactly once. */
function once(text: string, from: string, to: string): string {
  expect(text.split(from)).toHaveLength(2);
  return text.replace(from, to);
}

const FIRST_CALL = '{"from":"0x9dcd17433742f4c0ca53122ab541d0ba67fc27d0","gas":"0xf35c","gasUsed":"0x48","to":"0x9dcd17433742f4c0ca53122ab541d0ba67fc27d1","input":"0xff01","output":"0xffee","value":"0x1","type":"CALL"},';
const goldens = join(work, 'goldens');
const report = join(work, 'check.html');
let run: { code: number; stdout: string; stderr: string };

beforeAll(async () => {
  mkdirSync(goldens);
  let text = readFileSync(RECORDED, 'utf8');
  text = once(text, '"gasUsed":"0x28645"', '"gasUsed":"0x2a0f5"');
  text = once(text, 'c72dd9d5e883e', 'c72dd9d5f883e');
  text = once(text, '"revertReason":"user error"', '"revertReason":"user errer"');
  text = once(text, FIRST_CALL, '');
  writeFileSync(join(goldens, 'calltracer-with-log.io'), text);
  run = await runHarness(['check', CHAIN, goldens, '--report', report, '--no-cache']);
}, SLOW);

test('the text report: gas in decimal with its change, carets under the characters that differ', () => {
  expect(run.code).toBe(1);
  const word = (digit: string): string => `0x000000000000000000000000000000000000000000000000000c72dd9d5${digit}883e`;
  expect(run.stdout).toContain(['    gasUsed', '      expected: "0x2a0f5"', '      got:      "0x28645"', '      gas:      172,277 → 165,445 (-6,832)', '      at $.result.gasUsed'].join('\n'));
  expect(run.stdout).toContain(['    revertReason', '      expected: "user errer"', '      got:      "user error"', `${' '.repeat(25)}^`, '      at $.result.calls[0].revertReason'].join('\n'));
  expect(run.stdout).toContain(['        @32', `          expected: ${word('f')}`, `          got:      ${word('e')}`, `${' '.repeat(20 + word('f').indexOf('f883e'))}^`].join('\n'));
  expect(run.stdout).toEndWith('0 passed, 1 failed\n');
});

test("the HTML report's data: the index line says the kinds and how many; gas in decimal beside the hex", () => {
  const html = readFileSync(report, 'utf8');
  const data = JSON.parse(/<script type="application\/json" id="data">(.*?)<\/script>/s.exec(html)![1]!) as ReportData;
  expect(data.indexHeading).toBe('failing case');
  expect(data.sections.map((s) => [s.title, s.kind])).toEqual([['FAIL calltracer-with-log', '1 changed gas value, 1 call extra, 2 changed values']]);
  const gas = data.sections[0]!.tables[0]!.differences.find((d) => d.field === 'gasUsed')!;
  expect([gas.a, gas.b, gas.gas]).toEqual(['"0x2a0f5"', '"0x28645"', ['172277', '165445']]);
});

const missing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is not installed (test/ui.test.ts installs it)`;

describe.skipIf(missing !== undefined)('the HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, SLOW);
  afterAll(async () => {
    await browser?.close();
  }, SLOW);

  interface Seen {
    readonly errors: string[];
    readonly index: string[];
    readonly marks: { tag: string; text: string }[];
    readonly gas: string[];
    /** Each row's where and values cells' widths, in CSS pixels. */
    readonly widths: { where: number; values: number }[];
    /** The lines each value of the last row (the 32-byte words) takes. */
    readonly wordLines: number[];
    readonly scrollWidth: number;
  }

  async function open(width: number): Promise<Seen> {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(pathToFileURL(report).href);
    await page.waitForSelector('body[data-rendered]');
    const seen = await page.evaluate(() => {
      // the little of the DOM this reads (the tests compile without the DOM's types)
      interface Dom {
        readonly textContent: string | null;
        readonly tagName: string;
        getBoundingClientRect(): { width: number; height: number };
        querySelectorAll(selector: string): Iterable<Dom>;
      }
      const { document: doc, getComputedStyle } = globalThis as unknown as { document: Dom & { documentElement: { scrollWidth: number } }; getComputedStyle(e: Dom): { lineHeight: string } };
      const cells = (row: Dom): Dom[] => [...row.querySelectorAll('td')];
      return {
        index: [...doc.querySelectorAll('table.index tr:not(.head)')].map((r) => cells(r).map((c) => c.textContent ?? '').join(' | ')),
        marks: [...doc.querySelectorAll('table.differences td.value del, table.differences td.value ins')].map((m) => ({ tag: m.tagName.toLowerCase(), text: m.textContent ?? '' })),
        gas: [...doc.querySelectorAll('table.differences td.value .amount')].map((m) => m.textContent ?? ''),
        widths: [...doc.querySelectorAll('table.differences tr.differs')].map((r) => {
          const [where, , values] = cells(r).map((c) => c.getBoundingClientRect().width);
          return { where: where!, values: values! };
        }),
        wordLines: [...doc.querySelectorAll('table.differences tr.differs:last-child .pair .value')].map((v) => Math.round(v.getBoundingClientRect().height / parseFloat(getComputedStyle(v).lineHeight))),
        scrollWidth: doc.documentElement.scrollWidth,
      };
    });
    await page.close();
    return { errors, ...seen };
  }

  test('1280 px: the index line, the marked characters, gas in decimal with its change, the values wider than the place', async () => {
    const seen = await open(1280);
    expect(seen.errors).toEqual([]);
    expect(seen.index).toEqual(['FAIL calltracer-with-log | 1 changed gas value, 1 call extra, 2 changed values']);
    // the recording's side (expected) is marked as deleted, ours as inserted: the letter and the digit that differ, nothing else
    expect(seen.marks).toEqual([
      { tag: 'del', text: 'e' },
      { tag: 'ins', text: 'o' },
      { tag: 'del', text: 'f' },
      { tag: 'ins', text: 'e' },
    ]);
    expect(seen.gas).toEqual(['172,277', '165,445 (-6,832)']);
    expect(seen.widths).toHaveLength(4);
    for (const w of seen.widths) expect(w.values).toBeGreaterThan(2 * w.where);
    // a 32-byte word with its offset (70 characters) is one line on each side, not pieces
    expect(seen.wordLines).toEqual([1, 1]);
  }, SLOW);

  test('375 px: the same marks, no sideways scroll', async () => {
    const seen = await open(375);
    expect(seen.errors).toEqual([]);
    expect(seen.marks).toHaveLength(4);
    expect(seen.scrollWidth).toBeLessThanOrEqual(375);
  }, SLOW);
});
