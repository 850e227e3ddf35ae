// Puts the Elysia app on a socket with whatever runtime runs us: Elysia's own listen on Bun
// (source and compiled binary), Deno.serve(app.fetch) on Deno, a small node:http adapter on Node.
// All three hand the same web Request to the same app; none of them knows JSON-RPC.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import { isUpgrade, type WsData, type WsFace, type WsSocket } from './ws.ts';

export interface ListenOptions {
  readonly hostname: string;
  readonly port: number;
  /** Bodies past this are cut off by the runtime; the app answers smaller oversized ones itself. */
  readonly maxRequestBodySize: number;
  /** The WebSocket face on the same port (Bun only; elsewhere an upgrade is answered as HTTP). */
  readonly ws?: WsFace | undefined;
}

/** The part of Bun.serve used here. */
interface BunRuntime {
  serve(options: {
    hostname: string;
    port: number;
    maxRequestBodySize: number;
    reusePort: boolean;
    fetch(request: Request, server: { upgrade(request: Request, options: { data: WsData }): boolean }): Response | Promise<Response> | undefined;
    websocket: {
      open(ws: WsSocket): void;
      message(ws: WsSocket, message: string | Uint8Array): Promise<void>;
      close(ws: WsSocket): void;
    };
  }): { readonly port: number; stop(closeActive?: boolean): Promise<void> | void };
}

export type Runtime = 'bun' | 'deno' | 'node';

export interface Listening {
  readonly runtime: Runtime;
  readonly port: number;
  /** Stops accepting, closes open keep-alive connections, resolves when done. */
  stop(): Promise<void>;
}

/** The part of Deno's global this file uses (Deno.serve, Deno 2). */
interface DenoRuntime {
  serve(
    options: { hostname: string; port: number; onListen: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly addr: { readonly port: number }; shutdown(): Promise<void> };
}

export function currentRuntime(): Runtime {
  if ((globalThis as { Bun?: unknown }).Bun !== undefined) return 'bun';
  if ((globalThis as { Deno?: unknown }).Deno !== undefined) return 'deno';
  return 'node';
}

/** Binds and starts answering; throws when the address cannot be bound. */
export async function listen(app: App, options: ListenOptions): Promise<Listening> {
  switch (currentRuntime()) {
    case 'bun': {
      const ws = options.ws;
      if (ws === undefined) {
        // Elysia's Bun adapter turns reusePort on, which lets a second server share a busy port (and the
        // kernel split requests between two chains): a busy port must be an error here as elsewhere.
        app.listen({ hostname: options.hostname, port: options.port, maxRequestBodySize: options.maxRequestBodySize, reusePort: false });
        return { runtime: 'bun', port: app.server!.port!, stop: async () => void (await app.stop(true)) };
      }
      // HTTP goes to the Elysia app; a WebSocket handshake to the WebSocket face, which gets each
      // message's text as it came (Elysia's own ws() hands handlers the message already JSON-parsed)
      const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
      const server = bun.serve({
        hostname: options.hostname,
        port: options.port,
        maxRequestBodySize: options.maxRequestBodySize,
        reusePort: false,
        fetch(request, srv) {
          if (isUpgrade(request)) {
            if (!ws.accepts(request)) return new Response('websocket: origin not allowed (see --cors)\n', { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
            if (srv.upgrade(request, { data: {} })) return undefined;
          }
          return app.handle(request);
        },
        websocket: { open: (s) => ws.open(s), message: (s, m) => ws.message(s, m), close: (s) => ws.close(s) },
      });
      return {
        runtime: 'bun',
        port: server.port,
        stop: async () => {
          ws.stop();
          await server.stop(true);
        },
      };
    }
    case 'deno': {
      const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
      // onListen: Deno's default prints the address on stdout, which belongs to data only
      const server = deno.serve({ hostname: options.hostname, port: options.port, onListen: () => {} }, app.fetch);
      return { runtime: 'deno', port: server.addr.port, stop: () => server.shutdown() };
    }
    case 'node':
      return listenNode(app, options);
  }
}

async function listenNode(app: App, options: ListenOptions): Promise<Listening> {
  // imported here: loading node:http costs Bun some 15 ms of every start, and only Node uses it
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    void answerNode(app, req, res, options.maxRequestBodySize);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    runtime: 'node',
    port: (server.address() as AddressInfo).port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** node:http request → web Request → app.handle → node:http response. */
async function answerNode(app: App, req: IncomingMessage, res: ServerResponse, maxBody: number): Promise<void> {
  try {
    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    const method = req.method ?? 'GET';
    const init: RequestInit & { duplex?: 'half' } = { method, headers };
    if (method !== 'GET' && method !== 'HEAD') {
      init.body = bodyStream(req, maxBody);
      init.duplex = 'half';
    }
    const response = await app.handle(new Request(new URL(req.url ?? '/', 'http://localhost').href, init));
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    const body = new Uint8Array(await response.arrayBuffer());
    res.writeHead(response.status, { ...out, 'content-length': String(body.byteLength) });
    res.end(body);
  } catch (err) {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
    // the detail stays on this side: an error never echoes internals to the client
    process.stderr.write(`blocktrace: node adapter: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    res.end('internal error\n');
  }
}

/**
 * The request body as a web stream. When the app stops reading (an oversized body), the rest is
 * drained and dropped so the socket can still carry the answer; past `limit` the socket is cut,
 * as Bun's maxRequestBodySize does.
 */
function bodyStream(req: IncomingMessage, limit: number): ReadableStream<Uint8Array> {
  let open = true;
  let size = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (err: Error): void => {
        if (!open) return;
        open = false;
        controller.error(err);
      };
      req.on('data', (chunk: Uint8Array) => {
        size += chunk.byteLength;
        if (size > limit) {
          fail(new Error('request body too large'));
          req.destroy();
        } else if (open) {
          controller.enqueue(new Uint8Array(chunk));
        }
      });
      req.on('end', () => {
        if (!open) return;
        open = false;
        controller.close();
      });
      req.on('error', fail);
      req.on('close', () => fail(new Error('connection closed before the body ended')));
    },
    cancel() {
      open = false;
    },
  });
}
