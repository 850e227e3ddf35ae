// WebSocket on every runtime (issue 36): `serve` under Bun (source and compiled binary), Node and
// Deno (the esbuild bundle, built once into a temporary directory), each driven over ws://127.0.0.1
// by a raw WebSocket, viem's webSocket() transport and ethers' WebSocketProvider. Each answers with
// the bytes its HTTP face sends and Bun's WebSocket sends; a handshake from an Origin --cors does not
// name is refused alike, a frame over --max-body closes alike, SIGTERM with a socket open ends each.
// Deno without a permission serve needs says so in one line naming the flag.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketProvider } from 'ethers';
import { createPublicClient, http, webSocket } from 'viem';
import { startBlocktrace, type Server } from '../bench/blocktrace.ts';
import { BODIES, BUN, CLI, PRAGUE, ROOT } from './faces.ts';

const DENO = join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno');
const NODE = Bun.which('node') ?? 'node';
const MAX_BODY = 65536;
const ALLOWED = 'http://allowed.example';
const OPTIONS = ['--no-cache', '--max-body', String(MAX_BODY), '--cors', ALLOWED];
const SLOW = 60_000;
const DENO_RUN = [DENO, 'run', '--allow-env', '--allow-read', '--allow-net'];

const r = (id: number, method: string, params: unknown[] = []): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

let dist: string;
const command = (face: string): readonly string[] => {
  const bundle = join(dist, 'blocktrace.mjs');
  if (face === 'Bun') return [BUN, CLI];
  if (face === 'Bun binary') return [join(dist, 'blocktrace')];
  if (face === 'Node') return [NODE, bundle];
  return [...DENO_RUN, bundle];
};
const FACES = ['Bun', 'Bun binary', 'Node', 'Deno'];
const servers = new Map<string, Server>();

/** A WebSocket client that reads its messages one at a time. */
interface Socket {
  ask(text: string): Promise<string>;
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

async function openSocket(url: string, origin?: string): Promise<Socket> {
  // Bun's WebSocket takes request headers (a browser would send its page's Origin)
  const ws = new WebSocket(url, (origin === undefined ? {} : { headers: { Origin: origin } }) as unknown as string[]);
  const inbox: string[] = [];
  let wake: (() => void) | undefined;
  ws.onmessage = (event) => {
    inbox.push(String(event.data));
    wake?.();
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.onclose = (event) => {
      resolve({ code: event.code, reason: event.reason });
      wake?.();
    };
  });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`WebSocket ${url} did not open`));
  });
  return {
    async ask(text) {
      ws.send(text);
      while (inbox.length === 0) {
        if (ws.readyState === WebSocket.CLOSED) throw new Error('socket closed before an answer');
        await new Promise<void>((resolve) => (wake = resolve));
      }
      return inbox.shift()!;
    },
    closed,
    close: () => ws.close(),
  };
}

const wsUrl = (server: Server): string => server.url.replace('http://', 'ws://');

async function post(url: string, body: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.text();
}

/** A subscription session's answers, with its subscription ids named by their order. */
async function subscriptionTranscript(socket: Socket, emitter: string): Promise<string[]> {
  const answers: string[] = [];
  const ids: string[] = [];
  const subscribe = async (id: number, params: unknown[]): Promise<string> => {
    const answer = await socket.ask(r(id, 'eth_subscribe', params));
    answers.push(answer);
    const sub = (JSON.parse(answer) as { result: string }).result;
    expect(sub).toMatch(/^0x[0-9a-f]{1,32}$/);
    ids.push(sub);
    return sub;
  };
  const heads = await subscribe(1, ['newHeads']);
  const logs = await subscribe(2, ['logs', { address: emitter, topics: [] }]);
  for (const [id, params] of [[3, [heads]], [4, [heads]], [5, ['nope']], [6, [logs]]] as const) answers.push(await socket.ask(r(id, 'eth_unsubscribe', [...params])));
  answers.push(await socket.ask(r(7, 'eth_subscribe', ['nope'])));
  return answers.map((answer) => ids.reduce((text, sub, i) => text.replaceAll(sub, `SUBSCRIPTION${i}`), answer));
}

/** The upgrade a browser on `origin` would send, as fetch sends it: status, type and body of the refusal. */
async function handshakeFrom(server: Server, origin: string): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(server.url, {
    headers: { upgrade: 'websocket', connection: 'Upgrade', origin, 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

let emitter: string;
/** Bun's WebSocket answers to BODIES and its subscription transcript: every runtime must send these. */
let bunBodies: string[];
let bunTranscript: string[];
let bunRefusal: Awaited<ReturnType<typeof handshakeFrom>>;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'blocktrace-ws-dist-'));
  const build = Bun.spawn([BUN, 'build.ts', dist], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe', timeout: 180_000 });
  if ((await build.exited) !== 0) throw new Error(`bun build.ts failed: ${await new Response(build.stderr).text()}`);
  await Promise.all(FACES.map(async (face) => servers.set(face, await startBlocktrace(command(face), PRAGUE, ROOT, `blocktrace ${face}`, OPTIONS))));
  const bun = servers.get('Bun')!;
  emitter = (JSON.parse(await post(bun.url, r(1, 'eth_getLogs', [{ fromBlock: 'earliest' }]))) as { result: { address: string }[] }).result[0]!.address;
  const socket = await openSocket(wsUrl(bun));
  bunBodies = [];
  for (const body of BODIES) bunBodies.push(await socket.ask(body));
  bunTranscript = await subscriptionTranscript(socket, emitter);
  socket.close();
  bunRefusal = await handshakeFrom(bun, 'https://evil.example');
}, 240_000);

afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.child.stop()));
  rmSync(dist, { recursive: true, force: true });
});

describe.each(FACES)('WebSocket on %s', (face) => {
  const server = (): Server => servers.get(face)!;

  test('each body of the face tests: the HTTP bytes of this server, and Bun WebSocket bytes', async () => {
    const socket = await openSocket(wsUrl(server()));
    try {
      for (const [i, body] of BODIES.entries()) {
        const viaWs = await socket.ask(body);
        expect({ body, viaWs }).toEqual({ body, viaWs: await post(server().url, body) });
        expect({ body, viaWs }).toEqual({ body, viaWs: bunBodies[i]! });
      }
    } finally {
      socket.close();
    }
  }, SLOW);

  test('eth_subscribe newHeads and logs, eth_unsubscribe: the answers Bun sends', async () => {
    const socket = await openSocket(wsUrl(server()));
    try {
      const transcript = await subscriptionTranscript(socket, emitter);
      expect(transcript).toEqual(bunTranscript);
      expect(transcript.slice(2, 4)).toEqual(['{"jsonrpc":"2.0","id":3,"result":true}', '{"jsonrpc":"2.0","id":4,"error":{"code":-32000,"message":"subscription not found"}}']);
    } finally {
      socket.close();
    }
  }, SLOW);

  test("viem's webSocket() transport: block number, a block, a trace, subscriptions", async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl(server()), { retryCount: 0, reconnect: false, keepAlive: false }) });
    const overHttp = createPublicClient({ transport: http(server().url) });
    try {
      expect(await client.getBlockNumber()).toBe(7n);
      expect(await client.getBlock({ blockNumber: 2n, includeTransactions: true })).toEqual(await overHttp.getBlock({ blockNumber: 2n, includeTransactions: true }));
      const trace = JSON.parse(await post(server().url, r(1, 'debug_traceBlockByNumber', ['0x2', { tracer: 'callTracer' }]))) as { result: unknown };
      expect(await client.request({ method: 'debug_traceBlockByNumber', params: ['0x2', { tracer: 'callTracer' }] } as never)).toEqual(trace.result as never);
      const subscribed = [
        await client.transport.subscribe({ params: ['newHeads'], onData: () => {} }),
        await client.transport.subscribe({ params: ['logs', { address: emitter as `0x${string}` }], onData: () => {} }),
      ];
      for (const { subscriptionId, unsubscribe } of subscribed) {
        expect(subscriptionId).toMatch(/^0x[0-9a-f]{1,32}$/);
        expect((await unsubscribe()).result).toBe(true);
      }
    } finally {
      (await client.transport.getRpcClient()).close();
    }
  }, SLOW);

  test("ethers' WebSocketProvider: block number, a block, a trace, subscribe and unsubscribe", async () => {
    const provider = new WebSocketProvider(wsUrl(server()));
    try {
      expect(await provider.getBlockNumber()).toBe(7);
      const block = JSON.parse(await post(server().url, r(1, 'eth_getBlockByNumber', ['0x3', false]))) as { result: { hash: string } };
      expect((await provider.getBlock(3))!.hash).toBe(block.result.hash);
      const trace = JSON.parse(await post(server().url, r(1, 'trace_block', ['0x1']))) as { result: unknown };
      expect(await provider.send('trace_block', ['0x1'])).toEqual(trace.result);
      const id = (await provider.send('eth_subscribe', ['newHeads'])) as string;
      expect(id).toMatch(/^0x[0-9a-f]{1,32}$/);
      expect(await provider.send('eth_unsubscribe', [id])).toBe(true);
    } finally {
      await provider.destroy();
    }
  }, SLOW);

  test('a browser Origin --cors does not name is refused as Bun refuses it (403); the one it names gets in', async () => {
    expect(bunRefusal).toEqual({ status: 403, type: 'text/plain; charset=utf-8', body: 'websocket: origin not allowed (see --cors)\n' });
    expect(await handshakeFrom(server(), 'https://evil.example')).toEqual(bunRefusal);
    await expect(openSocket(wsUrl(server()), 'https://evil.example')).rejects.toThrow('did not open');
    const allowed = await openSocket(wsUrl(server()), ALLOWED);
    expect(await allowed.ask(r(1, 'eth_chainId'))).toBe('{"jsonrpc":"2.0","id":1,"result":"0x6c5662"}');
    allowed.close();
  }, SLOW);

  test('a frame over --max-body closes the connection with 1009', async () => {
    const socket = await openSocket(wsUrl(server()));
    await expect(socket.ask(' '.repeat(MAX_BODY + 1))).rejects.toThrow('socket closed');
    expect(await socket.closed).toEqual({ code: 1009, reason: `message too large (over ${MAX_BODY} bytes)` });
  }, SLOW);

  test('SIGTERM with a WebSocket open: the socket is closed (1001) and the server exits 0', async () => {
    const socket = await openSocket(wsUrl(server()));
    expect(await socket.ask(r(1, 'eth_subscribe', ['newHeads']))).toContain('"result":"0x');
    await server().child.stop(10_000);
    expect(await server().child.exited).toBe(0);
    // 1001, going away (each runtime's own reason)
    expect((await socket.closed).code).toBe(1001);
  }, SLOW);
});

describe('Deno without a permission serve needs', () => {
  const run = async (cmd: readonly string[]): Promise<{ code: number; stderr: string }> => {
    const proc = Bun.spawn([...cmd], { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', timeout: 30_000 });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    return { code, stderr };
  };
  const bundle = (): string => join(dist, 'blocktrace.mjs');

  test('no --allow-net: one line naming the flag and the command to run, exit 2, no stack', async () => {
    const { code, stderr } = await run([DENO, 'run', '--allow-env', '--allow-read', bundle(), 'serve', PRAGUE, '--host', '127.0.0.1', '--port', '0']);
    expect(stderr.trimEnd().split('\n')).toEqual([
      `blocktrace: Deno needs --allow-net to listen on 127.0.0.1:0 (run: deno run --allow-env --allow-read --allow-net ${bundle()} serve ${PRAGUE} --host 127.0.0.1 --port 0)`,
    ]);
    expect(code).toBe(2);
  }, SLOW);

  test('no --allow-env: --version still answers; serve says which flag, exit 2, no stack', async () => {
    const version = Bun.spawn([DENO, 'run', bundle(), '--version'], { stdout: 'pipe', stderr: 'pipe', timeout: 30_000 });
    expect(await new Response(version.stdout).text()).toStartWith('blocktrace ');
    expect(await version.exited).toBe(0);
    const { code, stderr } = await run([DENO, 'run', '--allow-read', '--allow-net', bundle(), 'serve', PRAGUE]);
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^blocktrace: Deno needs --allow-env for env access.* \(run: deno run --allow-env --allow-read --allow-net \S+blocktrace\.mjs serve \S+\)$/)]);
    expect(code).toBe(2);
  }, SLOW);
});
