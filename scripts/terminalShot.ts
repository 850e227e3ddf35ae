// A terminal screen as a PNG, for the docs: `tmux capture-pane -e -p` keeps the screen's colours as
// SGR escape codes; they become HTML spans, and headless Chromium (Debian's, as the viewer's tests
// use) takes the picture.
//
//   bun scripts/terminalShot.ts SCREEN.ansi OUT.png
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const PALETTE = ['#1e1e1e', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#dcdfe4'];
const BRIGHT = ['#5c6370', '#ef8891', '#b5e08f', '#f0d197', '#8cc6ff', '#d7a1e7', '#7fd3de', '#ffffff'];

interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  inverse?: boolean;
  underline?: boolean;
}

function colour256(n: number): string {
  if (n < 8) return PALETTE[n]!;
  if (n < 16) return BRIGHT[n - 8]!;
  if (n >= 232) return `rgb(${8 + (n - 232) * 10},${8 + (n - 232) * 10},${8 + (n - 232) * 10})`;
  const c = n - 16;
  const level = (v: number): number => (v === 0 ? 0 : 55 + v * 40);
  return `rgb(${level(Math.floor(c / 36))},${level(Math.floor(c / 6) % 6)},${level(c % 6)})`;
}

function apply(style: Style, codes: number[]): Style {
  const s = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) Object.keys(s).forEach((k) => delete s[k as keyof Style]);
    else if (c === 1) s.bold = true;
    else if (c === 7) s.inverse = true;
    else if (c === 4) s.underline = true;
    else if (c === 24) s.underline = false;
    else if (c === 22) s.bold = false;
    else if (c === 27) s.inverse = false;
    else if (c >= 30 && c <= 37) s.fg = PALETTE[c - 30];
    else if (c >= 90 && c <= 97) s.fg = BRIGHT[c - 90];
    else if (c >= 40 && c <= 47) s.bg = PALETTE[c - 40];
    else if (c >= 100 && c <= 107) s.bg = BRIGHT[c - 100];
    else if (c === 39) delete s.fg;
    else if (c === 49) delete s.bg;
    else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
      s[c === 38 ? 'fg' : 'bg'] = colour256(codes[i + 2]!);
      i += 2;
    } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
      s[c === 38 ? 'fg' : 'bg'] = `rgb(${codes[i + 2]},${codes[i + 3]},${codes[i + 4]})`;
      i += 4;
    }
  }
  return s;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function html(ansi: string): string {
  let style: Style = {};
  let out = '';
  for (const part of ansi.split(/(\u001b\[[0-9;]*m)/)) {
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(part);
    if (sgr !== null) {
      style = apply(style, sgr[1] === '' ? [0] : sgr[1]!.split(';').map(Number));
      continue;
    }
    if (part === '') continue;
    const fg = style.inverse ? (style.bg ?? PALETTE[0]) : style.fg;
    const bg = style.inverse ? (style.fg ?? PALETTE[7]) : style.bg;
    const css = [fg ? `color:${fg}` : '', bg ? `background:${bg}` : '', style.bold ? 'font-weight:bold' : '', style.underline ? 'text-decoration:underline' : ''].filter((c) => c !== '').join(';');
    out += css === '' ? escape(part) : `<span style="${css}">${escape(part)}</span>`;
  }
  return `<!doctype html><meta charset="utf-8"><body style="margin:0;background:${PALETTE[0]}"><pre id="t" style="margin:0;padding:12px;display:inline-block;color:${PALETTE[7]};font:13px/1.25 'DejaVu Sans Mono',monospace">${out}</pre></body>`;
}

const [input, output] = process.argv.slice(2);
if (input === undefined || output === undefined) {
  process.stderr.write('usage: bun scripts/terminalShot.ts SCREEN.ansi OUT.png\n');
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.setContent(html(readFileSync(input, 'utf8')));
  await page.locator('#t').screenshot({ path: output });
} finally {
  await browser.close();
}
