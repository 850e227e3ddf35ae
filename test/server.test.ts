// The same bodies through app.handle (no port), a real server on 127.0.0.1 and the harness:
// identical bytes. Plus the HTTP-only answers and concurrency.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { createApp, type App } from '../src/server/app.ts';
import { BODIES, PRAGUE, runHarness } from './faces.ts';

let app: App;
let url: string;
const viaHandle: string[] = [];

beforeAll(async () => {
  const ctx = createContext(await loadChain(PRAGUE), { log: () => {} });
  app = createApp({ ctx, maxBody: 64 * 1024 }).listen({ hostname: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${app.server!.port}/`;
});
afterAll(async () => {
  await app.stop();
});

const post = (body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('http://localhost/', { method: 'POST', headers, body });

describe('three faces, same bytes', () => {
  test('app.handle', async () => {
    for (const body of BODIES) {
      const res = await app.handle(post(body));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      viaHandle.push(await res.text());
    }
    // go-ethereum >= 1.17.4 ends no HTTP answer with a newline
    expect(viaHandle.every((t) => t.endsWith('}') || t.endsWith(']'))).toBe(true);
    expect(viaHandle[0]).toStartWith('{"jsonrpc":"2.0","id":1,"result":[{"txHash":"0x');
  });

  test('real server on 127.0.0.1', async () => {
    for (const [i, body] of BODIES.entries()) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(await res.text()).toBe(viaHandle[i]!);
    }
  });

  test('harness, requests on stdin', async () => {
    const { code, stdout, stderr } = await runHarness(['--replay-file', PRAGUE], BODIES.join('\n') + '\n');
    expect(stderr).not.toContain('    at ');
    expect(code).toBe(0);
    expect(stdout).toBe(viaHandle.map((t) => `${t}\n`).join(''));
  });
});

describe('HTTP answers', () => {
  test('wrong content type: 415 with go-ethereum text', async () => {
    const res = await app.handle(post(BODIES[4]!, { 'content-type': 'text/plain' }));
    expect(res.status).toBe(415);
    expect(await res.text()).toBe('invalid content type, only application/json is supported\n');
  });
  test('content type with parameters is accepted', async () => {
    const res = await app.handle(post(BODIES[4]!, { 'content-type': 'application/json; charset=utf-8' }));
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":1,"result":"0x6c5662"}');
  });
  test('GET /: 405 naming POST', async () => {
    const res = await app.handle(new Request('http://localhost/'));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.text()).toContain('POST /');
  });
  test('PUT, DELETE, PATCH /: 405 with Allow, not 404', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await app.handle(new Request('http://localhost/', { method, body: '{}' }));
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });
  test('other paths: 404', async () => {
    const res = await app.handle(new Request('http://localhost/rpc', { method: 'POST', body: '{}' }));
    expect(res.status).toBe(404);
    expect(await res.text()).toStartWith('not found: /rpc\n');
  });
  test('body over --max-body: 413 with a JSON-RPC error', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(64 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(await res.text()).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large (65537 \\u003e 65536 bytes)"}}');
  });
  test('notification: 200 with an empty body', async () => {
    const res = await app.handle(post('{"jsonrpc":"2.0","method":"eth_chainId"}'));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

test('50 concurrent requests all get their own correct answer', async () => {
  const jobs = Array.from({ length: 50 }, (_, i) => {
    const body = BODIES[i % BODIES.length]!.replace('"id":1', `"id":${1000 + i}`);
    const expected = viaHandle[i % BODIES.length]!.replace('"id":1,', `"id":${1000 + i},`);
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (res) => [await res.text(), expected]);
  });
  for (const [got, expected] of await Promise.all(jobs)) expect(got).toBe(expected!);
});

describe('answers past net/http buffer go out in pieces (server/answerBody.ts)', () => {
  const big = (id: string) => `{"jsonrpc":"2.0","id":${id},"method":"debug_traceBlockByNumber","params":["0x2",{"tracer":"prestateTracer","tracerConfig":{"diffMode":true}}]}`;
  const ctxText = async (body: string) => (await app.handle(post(body))).text();

  test('a large result: chunked, no Content-Length, the bytes of the other faces, rendered and then cached', async () => {
    for (const id of ['1', '"a\\u00e9"', '9007199254740993', '1', '"a\\u00e9"']) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big(id) });
      expect(res.headers.get('content-length')).toBeNull();
      const text = await res.text();
      expect(text.length).toBeGreaterThan(2048);
      expect(text).toBe(await ctxText(big(id)));
      expect(text).toStartWith(`{"jsonrpc":"2.0","id":${id},"result":`);
    }
  });

  test('a small answer keeps its Content-Length', async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODIES[4]! });
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });

  test('a batch of large results is one text, with its Content-Length', async () => {
    const body = `[${big('1')},${big('2')}]`;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    expect(text).toBe(await ctxText(body));
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
  });
});
