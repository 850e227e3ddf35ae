// A good replica (issue 50, item 4): on SIGTERM `serve` stops accepting, closes its WebSockets with
// 1001, answers the requests in flight, then exits 0; past --shutdown-timeout it cuts them (still
// exit 0); /health says loading, ready or draining; --log json writes one JSON object a line per
// HTTP request and WebSocket frame. Real processes, real signals; the health states also through app.handle, without a
// port; the shipped bundle under Node and Deno drains too. A SIGTERM during the load still exits 143
// at once: test/responsive.test.ts.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOOPER, loopFixture } from '../bench/pathological.ts';
import { spawnChild, stopAll } from '../bench/procs.ts';
import { createApp } from '../src/server/app.ts';
import { LoadGate } from '../src/server/loading.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-drain-'));
const fixture = join(work, 'loop.json');
beforeAll(async () => writeFileSync(fixture, JSON.stringify(await loopFixture(1_000_000n))), 120_000);
afterAll(async () => {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
});

/** An eth_call of the loop contract: some 50M gas of loop, about a second of work. */
const SLOW = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: LOOPER, gas: '0x2faf080' }, 'latest'] });
const post = async (url: string, body: string): Promise<string> => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();

/** `serve` of the loop fixture by `runtime` (the sources under Bun unless told), once it is ready. */
const serve = (...args: string[]) => serveOn([BUN, CLI], ...args);

async function serveOn(runtime: readonly string[], ...args: string[]) {
  const server = spawnChild('serve', [...runtime, 'serve', fixture, '--port', '0', '--no-cache', '--no-ui', ...args], ROOT);
  const url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/, 60_000))[1]!;
  await server.waitFor(/^chain /m, 60_000);
  return { server, url };
}

/** A slow request sent, and SIGTERM to `pid` while it runs: whether it was answered or cut. */
async function slowThenSigterm(url: string, pid: number): Promise<'answered' | 'cut'> {
  const outcome = post(url, SLOW).then(() => 'answered' as const, () => 'cut' as const);
  await Bun.sleep(150);
  process.kill(pid, 'SIGTERM');
  return outcome;
}

function openSocket(url: string): Promise<{ closed: Promise<number> }> {
  const ws = new WebSocket(url.replace('http://', 'ws://'));
  const closed = new Promise<number>((resolve) => (ws.onclose = (event) => resolve(event.code)));
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve({ closed });
    ws.onerror = () => reject(new Error('the WebSocket did not open'));
  });
}

test('SIGTERM with a request in flight and a WebSocket open: the request is answered, the socket closed with 1001, new connections refused, exit 0; --log json wrote a line per request', async () => {
  const { server, url } = await serve('--log', 'json', '--shutdown-timeout', '1m');
  const expected = await post(url, SLOW);
  expect(expected).toBe('{"jsonrpc":"2.0","id":1,"result":"0x"}');
  const socket = await openSocket(url);
  const inFlight = post(url, SLOW);
  await Bun.sleep(150);
  process.kill(server.pid, 'SIGTERM');
  expect(await socket.closed).toBe(1001);
  expect(await inFlight).toBe(expected);
  expect(await server.exited).toBe(0);
  await expect(fetch(`${url}health`)).rejects.toThrow();
  const lines = server.output().split('\n').filter((l) => l.startsWith('{'));
  const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  // the first eth_call, the WebSocket's handshake is not an HTTP request answered by the app, the one in flight
  expect(logged.map(({ method, http, path, status }) => ({ method, http, path, status }))).toEqual([
    { method: 'eth_call', http: 'POST', path: '/', status: 200 },
    { method: 'eth_call', http: 'POST', path: '/', status: 200 },
  ]);
  for (const entry of logged) {
    expect(Object.keys(entry)).toEqual(['time', 'method', 'http', 'path', 'status', 'ms']);
    expect(typeof entry['ms']).toBe('number');
    expect(new Date(entry['time'] as string).toISOString()).toBe(entry['time'] as string);
  }
  expect(server.output()).toContain('blocktrace: SIGTERM, draining');
}, 120_000);

test('--log json: a WebSocket frame is a line too (http WS, status null), its method and time', async () => {
  const { server, url } = await serve('--log', 'json');
  const ws = new WebSocket(url.replace('http://', 'ws://'));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error('the WebSocket did not open'));
  });
  const answer = new Promise<string>((resolve) => (ws.onmessage = (event) => resolve(String(event.data))));
  ws.send('{"jsonrpc":"2.0","id":7,"method":"eth_blockNumber","params":[]}');
  expect(await answer).toBe('{"jsonrpc":"2.0","id":7,"result":"0x1"}');
  ws.close();
  process.kill(server.pid, 'SIGTERM');
  expect(await server.exited).toBe(0);
  const logged = server.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(logged.map(({ method, http, path, status }) => ({ method, http, path, status }))).toEqual([{ method: 'eth_blockNumber', http: 'WS', path: '/', status: null }]);
  expect(Object.keys(logged[0]!)).toEqual(['time', 'method', 'http', 'path', 'status', 'ms']);
  expect(typeof logged[0]!['ms']).toBe('number');
}, 120_000);

// the bundle the package ships (dist/blocktrace.mjs) drains the same way under Node and Deno
const DENO = join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno');
const BUNDLE = join(ROOT, 'dist/blocktrace.mjs');
const RUNTIMES: readonly (readonly [string, readonly string[]])[] = [
  ['Node', [Bun.which('node')!, BUNDLE]],
  ['Deno', [DENO, 'run', '--allow-env', '--allow-read', '--allow-net', '--allow-write', '--allow-sys', BUNDLE]],
];

test.each(RUNTIMES)('under %s (the bundle): SIGTERM with a request in flight answers it, then exit 0', async (_name, cmd) => {
  const { server, url } = await serveOn(cmd, '--shutdown-timeout', '1m');
  const expected = await post(url, SLOW);
  expect(expected).toBe('{"jsonrpc":"2.0","id":1,"result":"0x"}');
  const inFlight = post(url, SLOW);
  await Bun.sleep(150);
  process.kill(server.pid, 'SIGTERM');
  expect(await inFlight).toBe(expected);
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain('blocktrace: SIGTERM, draining');
}, 120_000);

test('--shutdown-timeout 0: a SIGTERM cuts the request in flight, says so in one line, exit 0', async () => {
  const { server, url } = await serve('--shutdown-timeout', '0');
  const inFlight = slowThenSigterm(url, server.pid);
  expect(await inFlight).toBe('cut');
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain('blocktrace: --shutdown-timeout passed; 1 request in flight cut');
}, 120_000);

test('a second SIGTERM while draining stops at once', async () => {
  const { server, url } = await serve('--shutdown-timeout', '1m');
  const inFlight = slowThenSigterm(url, server.pid);
  await server.waitFor(/draining/, 10_000);
  process.kill(server.pid, 'SIGTERM');
  expect(await server.exited).toBe(0);
  expect(await inFlight).toBe('cut');
  expect(server.output()).toContain('blocktrace: SIGTERM again, stopping now');
}, 120_000);

test('/health: 503 loading, 200 ready, 503 draining (through the app, no port)', async () => {
  const gate = new LoadGate();
  let draining = false;
  const app = createApp({ gate, maxBody: 1024, draining: () => draining });
  const health = async (): Promise<[number, string]> => {
    const res = await app.handle(new Request('http://127.0.0.1/health'));
    return [res.status, JSON.parse(await res.text()).status as string];
  };
  gate.progress(1, 4, 1n);
  expect(await health()).toEqual([503, 'loading']);
  const ctx = { chain: { head: { number: 4n } } } as unknown as Parameters<LoadGate['open']>[0];
  gate.open(ctx);
  expect(await health()).toEqual([200, 'ready']);
  draining = true;
  expect(await health()).toEqual([503, 'draining']);
});
