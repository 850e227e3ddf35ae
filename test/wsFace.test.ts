// The WebSocket face without a socket (src/server/ws.ts): what every runtime's adapter shares. The
// handshake's Origin rule, each frame answered with the HTTP bytes, subscriptions and their cap,
// the frame limit and what a close drops. test/wsRuntimes.test.ts drives the same face through Bun,
// Node and Deno with real clients.
import { describe, expect, test } from 'bun:test';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION } from '../src/rpc/subscriptions.ts';
import { createApp } from '../src/server/app.ts';
import { createWsFace, MESSAGE_TOO_BIG, type WsPeer } from '../src/server/ws.ts';
import { fakeContext } from './rpc/fakeChain.ts';

const MAX_BODY = 4096;
const r = (id: number, method: string, params: unknown[] = []): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A peer that keeps what the face sent and how it closed. */
function recorder(): WsPeer & { sent: string[]; closes: [number, string][] } {
  const sent: string[] = [];
  const closes: [number, string][] = [];
  return { sent, closes, send: (text) => void sent.push(text), close: (code, reason) => void closes.push([code, reason]) };
}

const handshake = (origin?: string): Request =>
  new Request('http://localhost/', { headers: { upgrade: 'websocket', connection: 'Upgrade', ...(origin === undefined ? {} : { origin }) } });

describe('the handshake (go-ethereum wsHandshakeValidator)', () => {
  test('no Origin (not a browser) is let in; an Origin --cors does not name is refused with 403', async () => {
    const face = createWsFace({ ctx: fakeContext(), maxBody: MAX_BODY });
    expect(face.refusal(handshake())).toBeUndefined();
    const refused = face.refusal(handshake('https://evil.example'))!;
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await refused.text()).toBe('websocket: origin not allowed (see --cors)\n');
  });
  test('an origin --cors lists (any case) or "*" is let in', () => {
    const listed = createWsFace({ ctx: fakeContext(), maxBody: MAX_BODY, cors: ['https://App.example'] });
    expect(listed.refusal(handshake('https://app.example'))).toBeUndefined();
    expect(listed.refusal(handshake('https://other.example'))?.status).toBe(403);
    expect(createWsFace({ ctx: fakeContext(), maxBody: MAX_BODY, cors: ['*'] }).refusal(handshake('https://any.example'))).toBeUndefined();
  });
});

describe('frames', () => {
  test('a text frame and a binary one get the bytes HTTP answers, batches and errors included', async () => {
    const deps = { ctx: fakeContext(), maxBody: MAX_BODY };
    const app = createApp(deps);
    const peer = recorder();
    const connection = createWsFace(deps).connect(peer);
    const bodies = [r(1, 'eth_chainId'), `[${r(2, 'eth_chainId')},${r(3, 'nope')}]`, '{"jsonrpc":', '[]'];
    for (const body of bodies) {
      await connection.message(body);
      await connection.message(new TextEncoder().encode(body));
      const viaHttp = await (await app.handle(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body }))).text();
      expect(peer.sent.splice(0)).toEqual([viaHttp, viaHttp]);
    }
    // a notification has no answer
    await connection.message('{"jsonrpc":"2.0","method":"eth_chainId","params":[]}');
    expect(peer.sent).toEqual([]);
  });

  test('a frame over --max-body closes the connection with 1009, unanswered; one at the limit is answered', async () => {
    const face = createWsFace({ ctx: fakeContext(), maxBody: MAX_BODY });
    const body = r(1, 'eth_chainId');
    const atLimit = body + ' '.repeat(MAX_BODY - body.length);
    const fits = recorder();
    await face.connect(fits).message(atLimit);
    expect(fits.sent).toEqual(['{"jsonrpc":"2.0","id":1,"result":"0x539"}']);
    expect(fits.closes).toEqual([]);
    // counted in UTF-8 bytes, not UTF-16 units: 2 bytes each for "é", 4 for "😀" (two units)
    for (const over of [atLimit + ' ', new TextEncoder().encode(atLimit + ' '), body + 'é'.repeat((MAX_BODY - body.length) / 2 + 1), body + '😀'.repeat(MAX_BODY / 4)]) {
      const peer = recorder();
      const connection = face.connect(peer);
      await connection.message(over);
      expect(peer.closes).toEqual([[MESSAGE_TOO_BIG, `message too large (over ${MAX_BODY} bytes)`]]);
      // the adapter reports the close; nothing more is read or sent
      connection.closed();
      await connection.message(body);
      expect(peer.sent).toEqual([]);
    }
  });
});

describe('subscriptions', () => {
  test('eth_subscribe and eth_unsubscribe on the connection; over HTTP "notifications not supported"', async () => {
    const deps = { ctx: fakeContext(), maxBody: MAX_BODY };
    const peer = recorder();
    const connection = createWsFace(deps).connect(peer);
    await connection.message(r(1, 'eth_subscribe', ['newHeads']));
    await connection.message(r(2, 'eth_subscribe', ['logs', { address: '0x00000000000000000000000000000000000000aa' }]));
    const ids = peer.sent.splice(0).map((text) => (JSON.parse(text) as { result: string }).result);
    for (const id of ids) expect(id).toMatch(/^0x[0-9a-f]{1,32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    await connection.message(r(3, 'eth_unsubscribe', [ids[0]]));
    await connection.message(r(4, 'eth_unsubscribe', [ids[0]]));
    expect(peer.sent.splice(0)).toEqual(['{"jsonrpc":"2.0","id":3,"result":true}', '{"jsonrpc":"2.0","id":4,"error":{"code":-32000,"message":"subscription not found"}}']);
    const viaHttp = await createApp(deps).handle(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: r(5, 'eth_subscribe', ['newHeads']) }));
    expect(await viaHttp.text()).toBe('{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"notifications not supported"}}');
  });

  test(`at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION} on a connection; its close drops them, and another connection has its own`, async () => {
    const face = createWsFace({ ctx: fakeContext(), maxBody: MAX_BODY });
    const peer = recorder();
    const connection = face.connect(peer);
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_CONNECTION; i++) await connection.message(r(i, 'eth_subscribe', ['newHeads']));
    expect(peer.sent.splice(0).filter((text) => text.includes('"result":"0x'))).toHaveLength(MAX_SUBSCRIPTIONS_PER_CONNECTION);
    await connection.message(r(0, 'eth_subscribe', ['newHeads']));
    expect(peer.sent.splice(0)).toEqual([`{"jsonrpc":"2.0","id":0,"error":{"code":-32000,"message":"too many subscriptions on this connection (at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION})"}}`]);
    const other = recorder();
    await face.connect(other).message(r(1, 'eth_subscribe', ['newHeads']));
    expect(other.sent[0]).toMatch(/^\{"jsonrpc":"2\.0","id":1,"result":"0x[0-9a-f]+"\}$/);
    // an answer still being made when the socket closes is not sent on it
    const late = connection.message(r(2, 'eth_chainId'));
    connection.closed();
    await late;
    expect(peer.sent).toEqual([]);
  });
});
