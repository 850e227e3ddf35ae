// Node's face: a node:http server handing each request to the same Elysia app as a web Request
// (server/listen.ts). Imported only when Node runs blocktrace (cli/serve.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from './app.ts';
import type { ListenOptions, Listening } from './listen.ts';

export async function listenNode(app: App, options: ListenOptions): Promise<Listening> {
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
