// The WebSocket face on the same host and port (ws://HOST:PORT/), without a transport: each runtime's
// adapter (server/listen.ts for Bun and Deno, server/nodeListen.ts for Node's `ws`) asks it whether
// a handshake is let in, then hands it each frame and the close. Each text frame is one request
// body, answered with the bytes HTTP would send (batches included); a connection can hold
// subscriptions (eth_subscribe), dropped when it closes. A browser's handshake must come from an
// origin `--cors` names, as go-ethereum checks `--ws.origins` (rpc/websocket.go
// wsHandshakeValidator); a client that sends no Origin (not a browser) is let in.
import type { RpcSession } from '../rpc/subscriptions.ts';
import { allowedOrigin, answerText, type AppDeps } from './app.ts';
import { HeadsPoller } from './headsPoller.ts';

/** What the face needs of one open socket. */
export interface WsPeer {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** One open connection, as its adapter reports to the face. */
export interface WsConnection {
  /** A frame's payload: text, or bytes (read as UTF-8 text, as go-ethereum's codec reads any frame). */
  message(data: string | ArrayBuffer | Uint8Array): Promise<void>;
  /** The socket closed (either side): its subscriptions go. */
  closed(): void;
}

export interface WsFace {
  /** The answer refusing the handshake of `request` (its Origin), or undefined when it is let in. */
  refusal(request: Request): Response | undefined;
  connect(peer: WsPeer): WsConnection;
  /** Stops the upstream poller; the adapter closes the sockets. */
  stop(): void;
}

/** RFC 6455 close code 1009: a frame over the read limit (gorilla/websocket ErrReadLimit, which go-ethereum's SetReadLimit raises). */
export const MESSAGE_TOO_BIG = 1009;

export function isUpgrade(request: Request): boolean {
  return (request.headers.get('upgrade') ?? '').toLowerCase() === 'websocket';
}

const REFUSED = 'websocket: origin not allowed (see --cors)\n';

/** UTF-8 length of `text`, counted only when its UTF-16 length leaves the answer open. */
function tooLarge(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let size = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 2 bytes below U+0800, 3 above; a surrogate pair (two units) is 4
    if (c >= 0x80) size += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return size > limit;
}

export function createWsFace(deps: AppDeps): WsFace {
  const sessions = new Set<RpcSession>();
  const poller = deps.ctx?.forward !== undefined ? new HeadsPoller(deps.ctx, sessions) : undefined;
  const decoder = new TextDecoder();
  return {
    refusal(request) {
      if (request.headers.get('origin') === null || allowedOrigin(request, deps.cors) !== undefined) return undefined;
      return new Response(REFUSED, { status: 403, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    },
    connect(peer) {
      let open = true;
      const session: RpcSession = {
        notify: (text) => {
          if (open) peer.send(text);
        },
        subscriptions: new Map(),
      };
      sessions.add(session);
      poller?.start();
      return {
        async message(data) {
          if (!open) return;
          const size = typeof data === 'string' ? undefined : data.byteLength;
          // a frame over --max-body closes the connection, as go-ethereum's read limit does; the
          // runtime itself stops one over twice that before it is read whole
          if (size === undefined ? tooLarge(data as string, deps.maxBody) : size > deps.maxBody) {
            open = false;
            peer.close(MESSAGE_TOO_BIG, `message too large (over ${deps.maxBody} bytes)`);
            return;
          }
          const text = typeof data === 'string' ? data : decoder.decode(data);
          const started = performance.now();
          const answer = await answerText(text, deps, session);
          deps.requestLog?.({ http: 'WS', path: '/', status: null, ms: performance.now() - started, body: text });
          if (answer !== undefined && open) peer.send(answer);
        },
        closed() {
          open = false;
          session.subscriptions.clear();
          sessions.delete(session);
        },
      };
    },
    stop() {
      poller?.stop();
    },
  };
}
