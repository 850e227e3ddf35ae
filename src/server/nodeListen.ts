// Node's face: a node:http server handing each request to the same Elysia app as a web Request
// (server/listen.ts), and each WebSocket handshake (its 'upgrade' event) to the WebSocket face
// (server/ws.ts) through the `ws` package. Imported only when Node runs blocktrace (cli/serve.ts).
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { App } from './app.ts';
import { GOING_AWAY, type ListenOptions, type Listening, within } from './listen.ts';
import { isUpgrade, type WsFace } from './ws.ts';

export async function listenNode(app: App, options: ListenOptions): Promise<Listening> {
  const server = createServer((req, res) => {
    void answerNode(app, req, res, options.maxRequestBodySize);
  });
  // permessage-deflate off, as Bun.serve and Deno serve it
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxRequestBodySize, perMessageDeflate: false });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgradeNode(app, options.ws, sockets, req, socket, head);
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
    stop: async () => {
      options.ws.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // open keep-alive connections too, so the process ends promptly
      server.closeAllConnections();
      await Promise.all([closed, closeSockets(sockets)]);
    },
    drain: async (ms) => {
      options.ws.stop();
      // close() stops accepting and ends idle keep-alive connections; a connection in flight ends after its answer
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (await within(Promise.all([closed, closeSockets(sockets)]), ms)) return 0;
      server.closeAllConnections();
      return 1;
    },
  };
}

/**
 * Closes the open WebSockets as Bun's and Deno's stop do (1001, going away), which are no longer the
 * HTTP server's to close; one whose client does not answer the close within a second is cut.
 */
async function closeSockets(sockets: WebSocketServer): Promise<void> {
  const open = [...sockets.clients];
  const gone = open.map((client) => new Promise<void>((resolve) => client.on('close', () => resolve())));
  for (const client of open) client.close(GOING_AWAY.code, GOING_AWAY.reason);
  const cut = setTimeout(() => {
    for (const client of open) client.terminate();
  }, 1000);
  await Promise.all(gone);
  clearTimeout(cut);
  sockets.close();
}

/** The request line and headers of `req` as a web Request (no body). */
function webRequest(req: IncomingMessage, init: RequestInit = {}): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(new URL(req.url ?? '/', 'http://localhost').href, { method: req.method ?? 'GET', headers, ...init });
}

/**
 * A handshake: refused by the face (its Origin), upgraded by `ws` (which answers 400 to a malformed
 * one), or, when it asks for another protocol than WebSocket, answered by the app as plain HTTP.
 */
async function upgradeNode(app: App, face: WsFace, sockets: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  // a client gone mid-handshake: nothing to answer
  socket.on('error', () => socket.destroy());
  try {
    const request = webRequest(req);
    const answer = isUpgrade(request) ? face.refusal(request) : await app.handle(request);
    if (answer !== undefined) {
      await writeResponse(socket, answer);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (client) => {
      const connection = face.connect({
        send: (text) => {
          if (client.readyState === WebSocket.OPEN) client.send(text);
        },
        close: (code, reason) => client.close(code, reason),
      });
      client.on('message', (data) => {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : data;
        void connection.message(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes);
      });
      client.on('close', () => connection.closed());
      // a frame over maxPayload or a protocol error: `ws` closes the socket itself (1009, 1002), and 'close' follows
      client.on('error', () => {});
    });
  } catch (err) {
    process.stderr.write(`blocktrace: node adapter: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    socket.destroy();
  }
}

/** A web Response written on a raw socket as HTTP/1.1, then the connection closed. */
async function writeResponse(socket: Duplex, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  let head = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection') head += `${name}: ${value}\r\n`;
  });
  head += `content-length: ${body.byteLength}\r\nconnection: close\r\n\r\n`;
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
}

/** node:http request → web Request → app.handle → node:http response. */
async function answerNode(app: App, req: IncomingMessage, res: ServerResponse, maxBody: number): Promise<void> {
  try {
    const method = req.method ?? 'GET';
    const init: RequestInit & { duplex?: 'half' } = {};
    if (method !== 'GET' && method !== 'HEAD') {
      init.body = bodyStream(req, maxBody);
      init.duplex = 'half';
    }
    const response = await app.handle(webRequest(req, init));
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
