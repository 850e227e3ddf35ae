// The README's synopsis is the Usage block of `blocktrace --help`, line for line, so neither can
// drift from what the command line takes.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELP_TEXT } from '../src/cli/args.ts';

const ROOT = join(import.meta.dir, '..');

test('the README synopsis is the Usage block of --help', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /<!-- synopsis:[^\n]*-->\n```\n([\s\S]*?)\n```/.exec(readme);
  expect(block).not.toBeNull();
  const usage = /\nUsage:\n([\s\S]*?)\n\n/.exec(HELP_TEXT);
  expect(usage).not.toBeNull();
  const helpLines = usage![1]!.split('\n').map((line) => line.replace(/^ {2}/, ''));
  expect(block![1]!.split('\n')).toEqual(helpLines);
});

test('every docs/ page the README links to exists', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\((docs\/[^)]+)\)/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThan(5);
  for (const link of links) expect(() => readFileSync(join(ROOT, link))).not.toThrow();
});
