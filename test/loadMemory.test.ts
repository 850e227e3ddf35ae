// A fixture too big for the memory given (issue 37): the load stops with one line naming the size it
// reached and exit 2, never by the system's out-of-memory killer, and leaves no snapshot behind; the
// harness and serve alike. The real CLI; a limit far below what any load takes stands for a fixture
// far past the machine.
import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUN, CLI, PRAGUE, ROOT, runHarness } from './faces.ts';

const dir = mkdtempSync(join(tmpdir(), 'blocktrace-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const LINE = /^blocktrace: \S+prague-devnet\/fixture\.json: the load passed the memory it may use, --max-memory 40 MB: \d+ MB resident at block \d+ \(\d+ of \d+ blocks replayed\)\n$/;

test('the harness: one line naming the size reached, exit 2, nothing answered, no snapshot written', async () => {
  const cache = join(dir, 'harness');
  const { code, stdout, stderr } = await runHarness(['--replay-file', PRAGUE, '--cache', cache, '--max-memory', '40MB'], '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}\n');
  expect([code, stdout]).toEqual([2, '']);
  expect(stderr).toMatch(LINE);
  const snapshots = (): string[] => (existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String).filter((f) => f.endsWith('.snap')) : []);
  expect(snapshots()).toEqual([]);
  // the same fixture within the machine's memory (the default) loads and answers
  const fine = await runHarness(['--replay-file', PRAGUE, '--cache', cache], '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}\n');
  expect([fine.code, fine.stdout]).toEqual([0, '{"jsonrpc":"2.0","id":1,"result":"0x7"}\n']);
  expect(snapshots().length).toBe(1);
}, 60_000);

test('serve: the same line after it started listening, exit 2', async () => {
  const proc = Bun.spawn([BUN, CLI, 'serve', PRAGUE, '--port', '0', '--no-cache', '--max-memory', '40MB'], { cwd: ROOT, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(2);
  const lines = stderr.split('\n').filter((l) => l !== '');
  expect(lines[0]).toMatch(/^blocktrace listening on http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(`${lines.at(-1)}\n`).toMatch(LINE);
}, 60_000);

test('a size that is no size is a usage error', async () => {
  const { code, stderr } = await runHarness(['--replay-file', PRAGUE, '--max-memory', 'lots']);
  expect(code).toBe(2);
  expect(stderr).toContain('--max-memory: not a size: lots');
});
