// The HTTP face: one Elysia app that carries bytes to dispatch() and back. JSON-RPC errors travel
// with HTTP 200 (go-ethereum rpc/http.go); transport problems get a clear HTTP answer. CORS is off
// unless origins are listed (go-ethereum --http.corsdomain, rs/cors behind it).
import { Elysia } from 'elysia';
import { goJson } from '../encoding/json.ts';
import { InvalidRequestError } from '../errors/rpcErrors.ts';
import type { RpcContext } from '../rpc/context.ts';
import { type AnswerPieces, dispatchPieces } from '../rpc/dispatch.ts';
import type { RpcSession } from '../rpc/subscriptions.ts';
import { answerBody } from './answerBody.ts';
import { answerWhileLoading, healthResponse, type LoadGate, stillLoading } from './loading.ts';
import type { RequestLogEntry } from './requestLog.ts';

export interface AppDeps {
  /** The chain's context; unset while `gate` loads it (the port opens before the replay). */
  readonly ctx?: RpcContext | undefined;
  /** The load the server waits for when `ctx` is unset. */
  readonly gate?: LoadGate | undefined;
  /** How long a request waits for the load, in ms (0: as long as it takes). */
  readonly loadWaitMs?: number | undefined;
  /** The chain id, known before the replay (eth_chainId while loading). */
  readonly chainId?: bigint | undefined;
  /** Largest accepted request body in bytes. */
  readonly maxBody: number;
  /** Browser origins allowed to call (`*` for any); undefined or empty: no CORS headers at all. */
  readonly cors?: readonly string[] | undefined;
  /** The trace viewer: GET / serves `page`, GET /abi.json the ABIs it decodes with. Unset: no viewer (--no-ui). */
  readonly ui?: { readonly page: string; readonly abiJson: string } | undefined;
  /** Whether the server is draining (a SIGTERM): GET /health says so with 503. */
  readonly draining?: (() => boolean) | undefined;
  /** `--log json`: called once for every HTTP request answered. */
  readonly requestLog?: ((entry: RequestLogEntry) => void) | undefined;
}

/** go-ethereum rpc/http.go acceptedContentTypes. */
const ACCEPTED_TYPES = ['application/json', 'application/json-rpc', 'application/jsonrequest'];

const JSON_HEADERS = { 'content-type': 'application/json' };
const TEXT_HEADERS = { 'content-type': 'text/plain; charset=utf-8' };

function mediaType(header: string | null): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

function tooLarge(size: string, maxBody: number): Response {
  const error = new InvalidRequestError(`request body too large (${size} > ${maxBody} bytes)`);
  const body = `{"jsonrpc":"2.0","id":null,"error":${goJson({ code: error.code, message: error.message })}}`;
  return new Response(body, { status: 413, headers: JSON_HEADERS });
}

/**
 * Reads the body as text, giving up once it exceeds `limit` bytes. A body of a declared length (at
 * most `limit`, checked before) is read whole, without a stream reader: the HTTP server reads no
 * more than the length declared, and a reader's promise per chunk is a cost every small request pays.
 */
async function readLimited(request: Request, limit: number, declared: boolean): Promise<string | undefined> {
  if (request.body === null) return '';
  if (declared) return request.text();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** `route` as is, or with `--log json` timed and logged (`body`: where POST / leaves the request's text). */
function logged<C extends { request: Request }>(deps: AppDeps, route: (ctx: C, body: { text?: string }) => Response | Promise<Response>): (ctx: C) => Response | Promise<Response> {
  const log = deps.requestLog;
  if (log === undefined) return (ctx) => route(ctx, {});
  return async (ctx) => {
    const started = performance.now();
    const body: { text?: string } = {};
    const response = await route(ctx, body);
    log({ http: ctx.request.method, path: new URL(ctx.request.url).pathname, status: response.status, ms: performance.now() - started, body: body.text });
    return response;
  };
}

async function handleRpc(request: Request, deps: AppDeps, body: { text?: string } = {}): Promise<Response> {
  if (!ACCEPTED_TYPES.includes(mediaType(request.headers.get('content-type')))) {
    return new Response('invalid content type, only application/json is supported\n', { status: 415, headers: TEXT_HEADERS });
  }
  const length = request.headers.get('content-length');
  const declared = Number(length ?? '0');
  if (declared > deps.maxBody) return tooLarge(String(declared), deps.maxBody);
  let text: string | undefined;
  try {
    text = await readLimited(request, deps.maxBody, length !== null && /^\d+$/.test(length));
  } catch {
    // the client broke off (or the runtime cut the body): say so, without the runtime's words
    return new Response('cannot read the request body\n', { status: 400, headers: TEXT_HEADERS });
  }
  if (text === undefined) return tooLarge('more', deps.maxBody);
  body.text = text;
  const answer = await answerPieces(text, deps);
  // go-ethereum ≥ 1.17.4 writes the HTTP answer with no trailing newline, and nothing for a notification
  return new Response(answerBody(answer), { status: 200, headers: JSON_HEADERS });
}

/**
 * The answer to one request text, whichever transport carried it (HTTP body, WebSocket message):
 * while the chain loads, the loading answers; then the dispatcher's.
 */
export async function answerText(text: string, deps: AppDeps, session?: RpcSession): Promise<string | undefined> {
  return (await answerPieces(text, deps, session))?.join('');
}

/** answerText, as the pieces of the answer's text (dispatchPieces). */
async function answerPieces(text: string, deps: AppDeps, session?: RpcSession): Promise<AnswerPieces | undefined> {
  let ctx = deps.ctx ?? deps.gate?.ready;
  if (ctx === undefined && deps.gate !== undefined) {
    const early = answerWhileLoading(text, deps.gate.current, deps.chainId);
    if (early !== undefined) return [early];
    ctx = await deps.gate.wait(deps.loadWaitMs ?? 0);
    if (ctx === undefined) return [stillLoading(text, deps.gate.current)];
  }
  if (ctx === undefined) throw new Error('createApp: neither ctx nor gate');
  return dispatchPieces(text, ctx, session);
}

/** The Access-Control-Allow-Origin value for this request's Origin, if CORS allows it. */
export function allowedOrigin(request: Request, cors: readonly string[] | undefined): string | undefined {
  const origin = request.headers.get('origin');
  if (cors === undefined || cors.length === 0 || origin === null) return undefined;
  if (cors.includes('*')) return '*';
  return cors.some((o) => o.toLowerCase() === origin.toLowerCase()) ? origin : undefined;
}

function withCors(request: Request, response: Response, cors: readonly string[] | undefined): Response {
  const origin = allowedOrigin(request, cors);
  if (origin !== undefined) {
    response.headers.set('access-control-allow-origin', origin);
    if (origin !== '*') response.headers.set('vary', 'Origin');
  }
  return response;
}

/** OPTIONS /: a CORS preflight from an allowed origin gets its grant; anything else only `allow`. */
function preflight(request: Request, cors: readonly string[] | undefined): Response {
  const origin = allowedOrigin(request, cors);
  const method = request.headers.get('access-control-request-method');
  if (origin === undefined || method === null || method.toUpperCase() !== 'POST') {
    return new Response(null, { status: 204, headers: { allow: 'POST' } });
  }
  const headers: Record<string, string> = {
    allow: 'POST',
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST',
    // go-ethereum allows every request header (AllowedHeaders: "*") and caches for 600 s
    'access-control-allow-headers': request.headers.get('access-control-request-headers') ?? 'Content-Type',
    'access-control-max-age': '600',
  };
  if (origin !== '*') headers.vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
  return new Response(null, { status: 204, headers });
}

const HTML_HEADERS = { 'content-type': 'text/html; charset=utf-8' };
/** The viewer's pages at the paths explorers write (/tx/0x…, /block/N, /address/0x…, an address's pages, /blocks/N) and a transaction's Debug view (/tx/0x…/debug, /tx/0x…/debug/STEP): the viewer's page, which reads its path. */
const VIEWER_PATHS = /^\/(?:(?:tx|block|blocks|address)\/[^/]+(?:\/(?:before|after)\/\d+)?|tx\/[^/]+\/debug(?:\/\d+)?)\/?$/;

const USAGE = 'blocktrace: send JSON-RPC 2.0 requests as POST / with Content-Type: application/json\n';

export function createApp(deps: AppDeps) {
  return new Elysia()
    .post('/', logged(deps, async ({ request }, body) => withCors(request, await handleRpc(request, deps, body), deps.cors)), { parse: 'none' })
    .get('/', logged(deps, () =>
      deps.ui === undefined
        ? new Response(USAGE, { status: 405, headers: { ...TEXT_HEADERS, allow: 'POST' } })
        : new Response(deps.ui.page, { status: 200, headers: HTML_HEADERS }),
    ))
    .get('/abi.json', logged(deps, () =>
      deps.ui === undefined
        ? new Response(`not found: /abi.json\n${USAGE}`, { status: 404, headers: TEXT_HEADERS })
        : new Response(deps.ui.abiJson, { status: 200, headers: JSON_HEADERS }),
    ))
    .options('/', logged(deps, ({ request }) => preflight(request, deps.cors)))
    .get('/health', logged(deps, () => healthResponse(deps.gate, deps.ctx ?? deps.gate?.ready, deps.draining?.() ?? false)))
    .all('*', logged(deps, ({ request }) => {
      const path = new URL(request.url).pathname;
      // a method / does not take (PUT, DELETE, …): 405 with the ones it does, not "not found"
      if (path === '/') return new Response(USAGE, { status: 405, headers: { ...TEXT_HEADERS, allow: deps.ui === undefined ? 'POST, OPTIONS' : 'GET, POST, OPTIONS' } });
      if (deps.ui !== undefined && request.method === 'GET') {
        if (VIEWER_PATHS.test(path)) return new Response(deps.ui.page, { status: 200, headers: HTML_HEADERS });
        // a browser at a path the viewer has no page for: its not-found page (a program still gets the text)
        if ((request.headers.get('accept') ?? '').includes('text/html')) return new Response(deps.ui.page, { status: 404, headers: HTML_HEADERS });
      }
      return new Response(`not found: ${path}\n${USAGE}`, { status: 404, headers: TEXT_HEADERS });
    }));
}

export type App = ReturnType<typeof createApp>;
