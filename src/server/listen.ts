// Puts the Elysia app and the WebSocket face on one socket with whatever runtime runs us: Bun.serve
// on Bun (source and compiled binary), Deno.serve on Deno, a node:http server with the `ws` package
// on Node (nodeListen.ts). Each adapter hands HTTP requests to the same app as web Requests and a
// WebSocket's frames to the same face (ws.ts); none of them knows JSON-RPC.
import type { App } from './app.ts';
import { currentRuntime, type Runtime } from './runtime.ts';
import { isUpgrade, type WsConnection, type WsFace } from './ws.ts';

export interface ListenOptions {
  readonly hostname: string;
  readonly port: number;
  /**
   * Bodies and WebSocket frames past this are cut off by the runtime; the app answers smaller
   * oversized bodies itself, the face closes on smaller oversized frames.
   */
  readonly maxRequestBodySize: number;
  /** The WebSocket face on the same port. */
  readonly ws: WsFace;
  /**
   * The node:http adapter (server/nodeListen.ts), needed on Node only: the caller imports it there
   * alone, so Bun and Deno never load node:http and `ws` at start.
   */
  readonly node?: ((app: App, options: ListenOptions) => Promise<Listening>) | undefined;
}

export interface Listening {
  readonly runtime: Runtime;
  readonly port: number;
  /** Stops accepting, closes open keep-alive connections and WebSockets, resolves when done. */
  stop(): Promise<void>;
  /**
   * A replica's shutdown: stops accepting, closes the WebSockets (1001, going away), lets the requests
   * in flight finish for up to `ms`, then cuts what is left; resolves with how many were cut.
   */
  drain(ms: number): Promise<number>;
}

/** Whether `stopped` ends within `ms` (its timer cleared either way). */
export async function within(stopped: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([stopped.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** How a WebSocket is closed when its server goes away (RFC 6455 1001). */
export const GOING_AWAY = { code: 1001, reason: 'server shutting down' } as const;

/** The part of Bun's ServerWebSocket used here. */
interface BunSocket {
  readonly data: { connection?: WsConnection };
  send(text: string): unknown;
  close(code?: number, reason?: string): void;
}

/** The part of Bun.serve used here. */
interface BunRuntime {
  serve(options: {
    hostname: string;
    port: number;
    maxRequestBodySize: number;
    reusePort: boolean;
    fetch(request: Request, server: { upgrade(request: Request, options: { data: BunSocket['data'] }): boolean }): Response | Promise<Response> | undefined;
    websocket: {
      maxPayloadLength: number;
      open(ws: BunSocket): void;
      message(ws: BunSocket, message: string | Uint8Array): Promise<void> | undefined;
      close(ws: BunSocket): void;
    };
  }): { readonly port: number; readonly pendingRequests: number; stop(closeActive?: boolean): Promise<void> | void };
}

/** The part of a Deno WebSocket used here. */
interface DenoSocket {
  binaryType: string;
  readonly readyState: number;
  onopen: (() => void) | null;
  onmessage: ((event: { data: string | ArrayBuffer }) => void) | null;
  onclose: (() => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(text: string): void;
  close(code?: number, reason?: string): void;
}

/** The part of Deno's global this file uses (Deno 2). */
interface DenoRuntime {
  serve(
    options: { hostname: string; port: number; onListen: () => void },
    handler: (request: Request) => Response | Promise<Response>,
  ): { readonly addr: { readonly port: number }; shutdown(): Promise<void> };
  upgradeWebSocket(request: Request): { socket: DenoSocket; response: Response };
}

/** Binds and starts answering; throws when the address cannot be bound. */
export async function listen(app: App, options: ListenOptions): Promise<Listening> {
  switch (currentRuntime()) {
    case 'bun':
      return listenBun(app, options);
    case 'deno':
      return listenDeno(app, options);
    case 'node':
      if (options.node === undefined) throw new Error('on Node, listen needs the node:http adapter (server/nodeListen.ts)');
      return options.node(app, options);
  }
}

function listenBun(app: App, options: ListenOptions): Listening {
  const ws = options.ws;
  // HTTP goes to the Elysia app, a WebSocket handshake to the face, which gets each frame's text as
  // it came (Elysia's own ws() hands handlers the message already JSON-parsed). reusePort off:
  // Elysia's Bun adapter turns it on, which lets a second server share a busy port (and the kernel
  // split requests between two chains); a busy port must be an error here as elsewhere.
  const bun = (globalThis as unknown as { Bun: BunRuntime }).Bun;
  const open = new Set<BunSocket>();
  const server = bun.serve({
    hostname: options.hostname,
    port: options.port,
    maxRequestBodySize: options.maxRequestBodySize,
    reusePort: false,
    fetch(request, srv) {
      if (isUpgrade(request)) {
        const refusal = ws.refusal(request);
        if (refusal !== undefined) return refusal;
        if (srv.upgrade(request, { data: {} })) return undefined;
      }
      return app.handle(request);
    },
    websocket: {
      maxPayloadLength: options.maxRequestBodySize,
      open(s) {
        open.add(s);
        s.data.connection = ws.connect({ send: (text) => void s.send(text), close: (code, reason) => s.close(code, reason) });
      },
      message: (s, message) => s.data.connection?.message(message),
      close: (s) => {
        open.delete(s);
        s.data.connection?.closed();
      },
    },
  });
  return {
    runtime: 'bun',
    port: server.port,
    stop: async () => {
      ws.stop();
      await server.stop(true);
    },
    drain: async (ms) => {
      ws.stop();
      for (const s of open) s.close(GOING_AWAY.code, GOING_AWAY.reason);
      // stop(false): the listening socket closes now; each request in flight is answered, then its connection closed
      if (await within(Promise.resolve(server.stop(false)), ms)) return 0;
      const cut = server.pendingRequests;
      await server.stop(true);
      return cut;
    },
  };
}

function listenDeno(app: App, options: ListenOptions): Listening {
  const ws = options.ws;
  const deno = (globalThis as unknown as { Deno: DenoRuntime }).Deno;
  const upgrade = (request: Request): Response | Promise<Response> => {
    const refusal = ws.refusal(request);
    if (refusal !== undefined) return refusal;
    let upgraded: ReturnType<DenoRuntime['upgradeWebSocket']>;
    try {
      upgraded = deno.upgradeWebSocket(request);
    } catch {
      // not a handshake Deno can complete (no key, a GET over HTTP/2): answered as HTTP, as Bun does
      return app.fetch(request);
    }
    const { socket } = upgraded;
    let connection: WsConnection | undefined;
    socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      connection = ws.connect({
        // the client may have closed first: its close event follows, and the text has no one to read it
        send: (text) => {
          if (socket.readyState === 1) socket.send(text);
        },
        close: (code, reason) => socket.close(code, reason),
      });
    };
    socket.onmessage = (event) => void connection?.message(event.data);
    socket.onclose = () => connection?.closed();
    // a broken connection is followed by its close event; nothing to report to the client
    socket.onerror = () => {};
    return upgraded.response;
  };
  // onListen: Deno's default prints the address on stdout, which belongs to data only
  const server = deno.serve({ hostname: options.hostname, port: options.port, onListen: () => {} }, (request) =>
    isUpgrade(request) ? upgrade(request) : app.fetch(request),
  );
  return {
    runtime: 'deno',
    port: server.addr.port,
    stop: async () => {
      ws.stop();
      // shutdown() closes the open WebSockets too (1001, as Bun's stop does)
      await server.shutdown();
    },
    drain: async (ms) => {
      ws.stop();
      // shutdown() stops accepting and waits for the requests in flight; past the deadline the process ends with them
      return (await within(server.shutdown(), ms)) ? 0 : 1;
    },
  };
}
