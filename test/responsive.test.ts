// Responsive while loading (issue 27): a load that never leaves the interpreter (one transaction of
// 290M gas of loop, some seconds of replay even with the interpreter's synchronous steps) still answers
// GET /health with 503 and eth_blockNumber with the head replayed so far, and SIGTERM/SIGINT end it with 143/130; a
// served, idle server ends with 0. Real processes, real signals. How soon each answer and each exit
// comes is measured by the bench (bench/responsive.ts, targets 100/500/200 ms), not asserted here.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopFixture } from '../bench/pathological.ts';

const ROOT = join(import.meta.dir, '..');
const PRAGUE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
let dir: string;
let fixture: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'blocktrace-loop-'));
  fixture = join(dir, 'loop.json');
  writeFileSync(fixture, JSON.stringify(await loopFixture(290_000_000n)));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function serve(path: string): Promise<{ proc: Bun.Subprocess<'ignore', 'ignore', 'pipe'>; url: string; log: () => string }> {
  const proc = Bun.spawn([process.execPath, 'src/cli.ts', 'serve', path, '--port', '0', '--no-cache'], { cwd: ROOT, stdin: 'ignore', stdout: 'ignore', stderr: 'pipe' });
  const reader = proc.stderr.getReader();
  let seen = '';
  for (;;) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen)?.[1];
    if (url !== undefined) {
      void (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          seen += new TextDecoder().decode(value);
        }
      })();
      return { proc, url, log: () => seen };
    }
    const { done, value } = await reader.read();
    if (done) throw new Error(`exited before listening: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
}

test('during a load that never leaves the interpreter: /health says loading (503), eth_blockNumber answers the replayed head, SIGTERM ends it with 143', async () => {
  const { proc, url } = await serve(fixture);
  // the load lasts seconds: answers that say "loading" were given while the interpreter ran
  let loading = 0;
  for (let i = 0; i < 50 && loading < 5; i++) {
    const res = await fetch(`${url}health`);
    const body = (await res.json()) as { status: string };
    if (res.status === 503 && body.status === 'loading') loading++;
    await Bun.sleep(20);
  }
  expect(loading).toBe(5);
  const answer = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })).text();
  // the head replayed so far: the genesis, as the one block is still running
  expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":"0x0"}');
  proc.kill('SIGTERM');
  // a process that does not end fails the test by its timeout; how soon it ends is bench/responsive.ts's figure
  expect(await proc.exited).toBe(143);
}, 60_000);

test('SIGINT during the load: exit 130', async () => {
  const { proc, url } = await serve(fixture);
  expect((await fetch(`${url}health`)).status).toBe(503);
  proc.kill('SIGINT');
  expect(await proc.exited).toBe(130);
}, 60_000);

test('an idle server ends on SIGTERM with exit 0', async () => {
  const { proc, url, log } = await serve(PRAGUE);
  for (let i = 0; i < 200 && !/^chain /m.test(log()); i++) await Bun.sleep(50);
  expect((await fetch(`${url}health`)).status).toBe(200);
  proc.kill('SIGTERM');
  expect(await proc.exited).toBe(0);
}, 60_000);
