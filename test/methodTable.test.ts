// One method table, told truly: docs/methods.md's list and `blocktrace --help` name exactly the
// methods the dispatcher's table answers.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_LIST } from '../src/cli/methodList.ts';
import { methodNames } from '../src/rpc/methods.ts';

const ROOT = join(import.meta.dir, '..');

test('docs/methods.md lists every method of the table, in its order, and no other', () => {
  const doc = readFileSync(join(ROOT, 'docs/methods.md'), 'utf8');
  const block = /<!-- methods: begin -->\n([\s\S]*?)\n<!-- methods: end -->/.exec(doc);
  expect(block).not.toBeNull();
  const listed = block![1]!.split('\n').map((line) => /^- `([^`]+)`/.exec(line)?.[1]);
  expect(listed).toEqual(methodNames());
});

test('the --help list (src/cli/methodList.ts) is the table', () => {
  expect(METHOD_LIST).toEqual(methodNames());
});

test('blocktrace --help lists every method of the table', async () => {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), '--help'], { stdout: 'pipe' });
  const help = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  const listed = help.slice(help.lastIndexOf('Methods:')).split('\n').slice(3).join(' ').split(/[,\s]+/).filter((w) => w !== '');
  expect(listed).toEqual(methodNames());
});
