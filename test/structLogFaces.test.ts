// The struct logger (--all-tracers) through a real server on 127.0.0.1 and through the harness:
// the same bytes, the size refusal included.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { createApp, type App } from '../src/server/app.ts';
import { ROOT, runHarness } from './faces.ts';

const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const r = (method: string, params: unknown, id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const CODE_AT = '0x00000000000000000000000000000000000000aa';

const BODIES = [
  r('debug_traceBlockByNumber', ['0x4']),
  r('debug_traceBlockByNumber', ['0x3', { enableMemory: true, enableReturnData: true, limit: 100_000 }], 'm'),
  // block 10 with memory is some 35 MB: over the default --max-response of 25 MB
  r('debug_traceBlockByNumber', ['0xa', { enableMemory: true }], 2),
  r('debug_traceCall', [{ to: CODE_AT, gas: '0x7530' }, 'latest', { stateOverrides: { [CODE_AT]: { code: '0x6001600155600054' } } }], 3),
  `[${r('eth_blockNumber', [], 4)},${r('debug_traceBlockByHash', ['0x' + '00'.repeat(32), {}], 5)}]`,
];

let app: App;
let url: string;
beforeAll(async () => {
  const ctx = createContext(await loadChain(CANCUN), { log: () => {}, allTracers: true });
  app = createApp({ ctx, maxBody: 64 * 1024 }).listen({ hostname: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${app.server!.port}/`;
}, 60_000);
afterAll(async () => {
  await app.stop();
});

test('real server on 127.0.0.1 and the harness give the same bytes', async () => {
  const viaHttp: string[] = [];
  for (const body of BODIES) {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
    viaHttp.push(await res.text());
  }
  expect(viaHttp[0]).toStartWith('{"jsonrpc":"2.0","id":1,"result":[{"txHash":"0x');
  expect(viaHttp[0]).toContain('"structLogs":[{"pc":0,');
  expect(viaHttp[2]).toBe('{"jsonrpc":"2.0","id":2,"error":{"code":-32003,"message":"response too large"}}');
  expect(viaHttp[3]).toContain('"op":"SSTORE"');
  const { code, stdout, stderr } = await runHarness(['--replay-file', CANCUN, '--all-tracers', '--no-cache'], BODIES.join('\n') + '\n');
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  expect(stdout).toBe(viaHttp.map((t) => `${t}\n`).join(''));
}, 120_000);
