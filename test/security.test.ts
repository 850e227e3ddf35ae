// Security defaults: the server binds 127.0.0.1 unless told otherwise, sends no CORS headers unless
// origins are listed, reads no file a request names, and never echoes internals in an error.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../src/server/app.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { BUN, CLI, PRAGUE, ROOT } from './faces.ts';
import { fakeChain, fakeContext } from './rpc/fakeChain.ts';

const CHAIN_ID = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}';
const post = (headers: Record<string, string> = {}, body = CHAIN_ID) =>
  new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const preflight = (origin: string) =>
  new Request('http://localhost/', {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });

describe('binding', () => {
  test('`serve` with no --host listens on 127.0.0.1 only', async () => {
    const proc = Bun.spawn([BUN, CLI, 'serve', PRAGUE, '--port', '0'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    try {
      const reader = proc.stderr.getReader();
      let seen = '';
      while (!/listening on (\S+)/.test(seen)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`server exited: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      reader.releaseLock();
      const url = /listening on (\S+)/.exec(seen)![1]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAIN_ID });
      expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x6c5662"}');
    } finally {
      proc.kill('SIGTERM');
      await proc.exited;
    }
  });
});

describe('CORS', () => {
  const ctx = fakeContext();
  test('off by default: no Access-Control-* header, even for a preflight', async () => {
    const app = createApp({ ctx, maxBody: 1024 });
    const res = await app.handle(post({ origin: 'https://evil.example' }));
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x539"}');
    const pre = await app.handle(preflight('https://evil.example'));
    for (const r of [res, pre]) expect([...r.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });
  test('--cors lists origins: a listed one gets its own origin back and a preflight grant', async () => {
    const app = createApp({ ctx, maxBody: 1024, cors: ['http://localhost:3000', 'https://app.example'] });
    const res = await app.handle(post({ origin: 'https://app.example' }));
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('vary')).toBe('Origin');
    const pre = await app.handle(preflight('http://localhost:3000'));
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(pre.headers.get('access-control-allow-methods')).toBe('POST');
    expect(pre.headers.get('access-control-allow-headers')).toBe('content-type');
    // an unlisted origin is still answered (CORS is the browser's check) but without a grant
    const other = await app.handle(post({ origin: 'https://evil.example' }));
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await app.handle(preflight('https://evil.example'))).headers.get('access-control-allow-origin')).toBeNull();
  });
  test('--cors "*" allows any origin', async () => {
    const app = createApp({ ctx, maxBody: 1024, cors: ['*'] });
    expect((await app.handle(post({ origin: 'https://any.example' }))).headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('no file named by a request is read', () => {
  const app = createApp({ ctx: fakeContext(), maxBody: 1024 * 1024 });
  const secret = readFileSync(join(ROOT, 'package.json'), 'utf8').slice(0, 40);
  for (const path of ['/package.json', '/../package.json', '/%2e%2e/package.json', '/golden/fixtures/prague-devnet/fixture.json', '/etc/passwd', '//etc/passwd', '/src/cli.ts']) {
    test(`GET and POST ${path}: 404, nothing of the file`, async () => {
      for (const method of ['GET', 'POST']) {
        const res = await app.handle(new Request(`http://localhost${path}`, { method, ...(method === 'POST' ? { body: CHAIN_ID } : {}) }));
        expect(res.status).toBe(404);
        const text = await res.text();
        expect(text).not.toContain(secret);
        expect(text).not.toContain('root:');
      }
    });
  }
  test('JSON-RPC params that name files are just bad params', async () => {
    for (const body of [
      '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["/etc/passwd",{"tracer":"callTracer"}]}',
      '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"../../package.json"}]}',
      '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer","tracerConfig":{"file":"/etc/passwd"}}]}',
    ]) {
      const answer = (await app.handle(post({}, body)).then((r) => r.text())) as string;
      expect(answer).toMatch(/"code":-32602/);
      expect(answer).not.toContain('root:');
    }
  });
  test('the request path (rpc/, server/) imports nothing that reads files', () => {
    const files = ['rpc', 'rpc/handlers', 'server'].flatMap((dir) =>
      readdirSync(join(ROOT, 'src', dir)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => join(ROOT, 'src', dir, f)),
    );
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) expect([file, readFileSync(file, 'utf8')]).not.toEqual([file, expect.stringMatching(/node:fs|from 'fs'|Bun\.file|readFile|import\(/)]);
  });
});

describe('errors never echo internals', () => {
  test('a crash inside a handler is -32603 "method handler crashed"; the detail goes to the log only', async () => {
    const failure = new Error('ENOENT: /home/operator/secret/state.db at FixtureChain.record');
    const ctx = fakeContext(fakeChain({ recordError: failure }));
    const answer = await dispatch('{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x1"]}', ctx);
    expect(answer).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"method handler crashed"}}');
    expect(ctx.logged.join('\n')).toContain('/home/operator/secret/state.db');
  });
  test('a crash through HTTP: the same answer, HTTP 200, no stack', async () => {
    const ctx = fakeContext(fakeChain({ recordError: new TypeError("Cannot read properties of undefined (reading 'frames')") }));
    const res = await createApp({ ctx, maxBody: 1024 }).handle(post({}, '{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x1"]}'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"method handler crashed"}}');
  });
  test('a body that breaks off: 400 saying so, not the runtime\'s words', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'));
        controller.error(new Error('ECONNRESET /home/operator/socket'));
      },
    });
    const res = await createApp({ ctx: fakeContext(), maxBody: 1024 }).handle(
      new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit),
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('cannot read the request body\n');
  });
  test('a fixture that cannot load: one line naming the fixture, no stack', async () => {
    const proc = Bun.spawn([BUN, CLI, 'serve', join(ROOT, 'no-such-fixture.json'), '--port', '0'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
