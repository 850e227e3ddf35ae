// One method table, told truly: docs/methods.md's list and `blocktrace --help` name exactly the
// methods the dispatcher's table answers.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_LIST, OPT_IN_METHOD_LIST } from '../src/cli/methodList.ts';
import { methodNames, optInMethodNames } from '../src/rpc/methods.ts';

const ROOT = join(import.meta.dir, '..');

test('docs/methods.md lists every method of the table, in its order, and no other', () => {
  const doc = readFileSync(join(ROOT, 'docs/methods.md'), 'utf8');
  const block = /<!-- methods: begin -->\n([\s\S]*?)\n<!-- methods: end -->/.exec(doc);
  expect(block).not.toBeNull();
  const listed = block![1]!.split('\n').map((line) => /^- `([^`]+)`/.exec(line)?.[1]);
  expect(listed).toEqual(methodNames());
  const optIn = /<!-- opt-in methods: begin -->\n([\s\S]*?)\n<!-- opt-in methods: end -->/.exec(doc);
  expect(optIn).not.toBeNull();
  expect(optIn![1]!.split('\n').map((line) => /^- `([^`]+)`/.exec(line)?.[1])).toEqual(optInMethodNames());
});

test('the --help list (src/cli/methodList.ts) is the table', () => {
  expect(METHOD_LIST).toEqual(methodNames());
  expect(OPT_IN_METHOD_LIST).toEqual(optInMethodNames());
});

test('blocktrace --help lists every method of the table', async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), '--help'], { stdout: 'pipe' });
  const help = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const words = (text: string): string[] => text.split(/[,\s]+/).filter((w) => w !== '');
  const [table, optIn] = help.slice(help.lastIndexOf('Methods:')).split('\n').slice(3).join('\n').split('With --all-tracers, also:');
  expect(words(table!)).toEqual(methodNames());
  expect(words(optIn!)).toEqual(optInMethodNames());
});
