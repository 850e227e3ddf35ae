// The WebSocket face on the same host and port (ws://HOST:PORT/): each text message is one request
// body, answered with the bytes HTTP would send (batches included), and a connection can hold
// subscriptions (eth_subscribe). A browser's handshake must come from an origin `--cors` names, as
// go-ethereum checks `--ws.origins` (rpc/websocket.go wsHandshakeValidator); a client that sends no
// Origin (not a browser) is let in. Only the Bun runtime serves WebSocket (server/listen.ts).
import type { RpcSession } from '../rpc/subscriptions.ts';
import { allowedOrigin, answerText, type AppDeps } from './app.ts';
import { HeadsPoller } from './headsPoller.ts';

/** What a WebSocket connection carries: its subscriptions. */
export interface WsData {
  session?: RpcSession;
}

/** The part of Bun's ServerWebSocket used here. */
export interface WsSocket {
  readonly data: WsData;
  send(text: string): unknown;
  close(code?: number, reason?: string): void;
}

export interface WsFace {
  /** Whether the handshake of `request` is let in (its Origin). */
  accepts(request: Request): boolean;
  open(ws: WsSocket): void;
  message(ws: WsSocket, message: string | Uint8Array): Promise<void>;
  close(ws: WsSocket): void;
  stop(): void;
}

export function isUpgrade(request: Request): boolean {
  return (request.headers.get('upgrade') ?? '').toLowerCase() === 'websocket';
}

export function createWsFace(deps: AppDeps): WsFace {
  const sessions = new Set<RpcSession>();
  const poller = deps.ctx?.forward !== undefined ? new HeadsPoller(deps.ctx, sessions) : undefined;
  return {
    accepts: (request) => request.headers.get('origin') === null || allowedOrigin(request, deps.cors) !== undefined,
    open(ws) {
      const session: RpcSession = {
        notify: (text) => void ws.send(text),
        subscriptions: new Map(),
      };
      ws.data.session = session;
      sessions.add(session);
      poller?.start();
    },
    async message(ws, message) {
      const text = typeof message === 'string' ? message : new TextDecoder().decode(message);
      const answer = await answerText(text, deps, ws.data.session);
      if (answer !== undefined) ws.send(answer);
    },
    close(ws) {
      if (ws.data.session !== undefined) sessions.delete(ws.data.session);
    },
    stop() {
      poller?.stop();
    },
  };
}
