// The npm package (issue 36): `npm pack` makes a tarball (with the committed bundle), `npm install
// -g` puts it into an empty prefix, and its `blocktrace` runs under Node with no Bun anywhere on PATH,
// answering the bytes `npx blocktrace` answers under Bun, as the harness and as the server.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../bench/procs.ts';
import { PRAGUE, ROOT, runHarness } from './faces.ts';

const SLOW = 240_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-npm-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
/** Node's own directory and the system's, and nothing of the checkout: no Bun to be found. */
const PATH = `${dirname(Bun.which('node')!)}:/usr/bin:/bin`;
const ENV = { PATH, HOME: work, XDG_CACHE_HOME: join(work, 'cache') };

const REQUESTS = [
  '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x3",{"tracer":"callTracer"}]}',
  '{"jsonrpc":"2.0","id":2,"method":"debug_traceBlockByNumber","params":["0x3",{"tracer":"prestateTracer","tracerConfig":{"diffMode":true}}]}',
  '{"jsonrpc":"2.0","id":3,"method":"trace_block","params":["0x3"]}',
];

let blocktrace = '';

async function run(command: string[], env: Record<string, string | undefined>, cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn(command, { cwd, env, stdout: 'pipe', stderr: 'pipe' });
  const killer = setTimeout(() => proc.kill(), SLOW);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(killer);
  return { code, stdout, stderr };
}

beforeAll(async () => {
  const npm = Bun.which('npm')!;
  const packed = await run([npm, 'pack', ROOT, '--pack-destination', work], { ...process.env });
  expect(packed.code).toBe(0);
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  const prefix = join(work, 'prefix');
  const installed = await run([npm, 'install', '-g', '--prefix', prefix, tarball, '--no-audit', '--no-fund'], { ...process.env });
  expect(installed.code).toBe(0);
  blocktrace = join(prefix, 'bin/blocktrace');
}, SLOW);

describe('installed from npm pack into an empty prefix, run by Node alone', () => {
  test('no Bun on its PATH; --version', async () => {
    expect(Bun.which('bun', { PATH })).toBeNull();
    const { version } = JSON.parse(await Bun.file(join(ROOT, 'package.json')).text()) as { version: string };
    const out = await run([blocktrace, '--version'], ENV);
    expect([out.code, out.stdout.trim()]).toEqual([0, `blocktrace ${version}`]);
  }, SLOW);

  test('--replay-file answers the bytes of npx blocktrace under Bun (callTracer, prestate diff, trace_block)', async () => {
    const ours = await run([blocktrace, '--replay-file', PRAGUE, ...REQUESTS], ENV);
    const bun = await runHarness(['--replay-file', PRAGUE, ...REQUESTS]);
    expect(ours.code).toBe(0);
    expect(ours.stdout.split('\n').filter((l) => l !== '')).toHaveLength(3);
    expect(ours.stdout).toBe(bun.stdout);
  }, SLOW);

  test('serve answers HTTP the same bytes, and WebSocket eth_blockNumber and eth_subscribe', async () => {
    const port = await freePort();
    const proc = Bun.spawn([blocktrace, 'serve', PRAGUE, '--port', String(port), '--no-cache'], { cwd: work, env: ENV, stdout: 'ignore', stderr: 'pipe' });
    try {
      const url = `http://127.0.0.1:${port}/`;
      let ready = false;
      for (let i = 0; i < 600 && !ready; i++) {
        ready = await fetch(`${url}health`).then((r) => r.ok, () => false);
        if (!ready) await Bun.sleep(100);
      }
      expect(ready).toBe(true);
      const bun = await runHarness(['--replay-file', PRAGUE, ...REQUESTS]);
      const answers: string[] = [];
      for (const body of REQUESTS) answers.push(await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text());
      expect(`${answers.join('\n')}\n`).toBe(bun.stdout);
      // WebSocket on Node (the ws package inside the bundle): a call, and a subscription
      const ws = new WebSocket(`ws://127.0.0.1:${port}/`);
      const frames: string[] = [];
      const next = (): Promise<string> => new Promise((resolve) => ws.addEventListener('message', (e) => resolve(String(e.data)), { once: true }));
      await new Promise((resolve, reject) => {
        ws.addEventListener('open', resolve, { once: true });
        ws.addEventListener('error', reject, { once: true });
      });
      const first = next();
      ws.send('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}');
      frames.push(await first);
      const second = next();
      ws.send('{"jsonrpc":"2.0","id":2,"method":"eth_subscribe","params":["newHeads"]}');
      frames.push(await second);
      ws.close();
      expect(frames[0]).toBe('{"jsonrpc":"2.0","id":1,"result":"0x7"}');
      expect(frames[1]).toMatch(/^\{"jsonrpc":"2.0","id":2,"result":"0x[0-9a-f]+"\}$/);
    } finally {
      proc.kill();
      await proc.exited;
    }
  }, SLOW);
});
