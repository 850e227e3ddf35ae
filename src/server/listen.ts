// Puts the Elysia app on a socket with whatever runtime runs us: Elysia's own listen on Bun
// (source and compiled binary), Deno.serve(app.fetch) on Deno, a small node:http adapter on Node
// (nodeListen.ts).
// All three hand the same web Request to the same app; none of them knows JSON-RPC.
import type { App } from './app.ts';
import { currentRuntime, type Runtime } from './runtime.ts';
import { isUpgrade, type WsData, type WsFace, type WsSocket } from './ws.ts';

export interface ListenOptions {
  readonly hostname: string;
  readonly port: number;
  /** Bodies past this are cut off by the runtime; the app answers smaller oversized ones itself. */
  readonly maxRequestBodySize: number;
  /** The WebSocket face on the same port (Bun only; elsewhere an upgrade is answered as HTTP). */
  readonly ws?: WsFace | undefined;
  /**
   * The node:http adapter (server/nodeListen.ts), needed on Node only: the caller imports it there
   * alone, as loading node:http costs Bun some 15 ms of every start.
   */
  readonly node?: ((app: App, options: ListenOptions) => Promise<Listening>) | undefined;
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
      if (options.node === undefined) throw new Error('on Node, listen needs the node:http adapter (server/nodeListen.ts)');
      return options.node(app, options);
  }
}
