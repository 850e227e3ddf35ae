// Responsive while loading (issue 27): a load that never leaves the interpreter (one transaction of
// 290M gas of loop, some seconds of replay even with the interpreter's synchronous steps) still answers GET /health with 503 and JSON-RPC with the
// loading error within 100 ms, and SIGTERM/SIGINT end it within 500 ms with 143/130; a served, idle
// server stops within 200 ms. Real processes, real signals.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loopFixture } from './helpers/pathological.ts';

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

const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
};

test('during a load that never leaves the interpreter: /health and JSON-RPC answer within 100 ms; SIGTERM ends it within 500 ms (143)', async () => {
  const { proc, url } = await serve(fixture);
  let loading = 0;
  let slowest = 0;
  for (let i = 0; i < 15; i++) {
    const [res, ms] = await timed(() => fetch(`${url}health`));
    const body = (await res.json()) as { status: string };
    slowest = Math.max(slowest, ms);
    if (res.status === 503 && body.status === 'loading') loading++;
    await Bun.sleep(40);
  }
  const [answer, rpcMs] = await timed(async () =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' })).text(),
  );
  expect(loading).toBeGreaterThan(10);
  expect(slowest).toBeLessThan(100);
  expect(answer).toStartWith('{"jsonrpc":"2.0","id":1,');
  expect(rpcMs).toBeLessThan(100);
  const [code, exitMs] = await timed(async () => {
    proc.kill('SIGTERM');
    return proc.exited;
  });
  expect(code).toBe(143);
  expect(exitMs).toBeLessThan(500);
}, 60_000);

test('SIGINT during the load: exit 130 within 500 ms', async () => {
  const { proc } = await serve(fixture);
  await Bun.sleep(300);
  const [code, exitMs] = await timed(async () => {
    proc.kill('SIGINT');
    return proc.exited;
  });
  expect(code).toBe(130);
  expect(exitMs).toBeLessThan(500);
}, 60_000);

test('an idle server stops within 200 ms of SIGTERM, exit 0', async () => {
  const { proc, url, log } = await serve(PRAGUE);
  for (let i = 0; i < 200 && !/^chain /m.test(log()); i++) await Bun.sleep(50);
  expect((await fetch(`${url}health`)).status).toBe(200);
  const [code, exitMs] = await timed(async () => {
    proc.kill('SIGTERM');
    return proc.exited;
  });
  expect(code).toBe(0);
  expect(exitMs).toBeLessThan(200);
}, 60_000);
