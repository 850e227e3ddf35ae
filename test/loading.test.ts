// The port opens before the replay (issue 18): GET /health says loading/ready, eth_blockNumber
// answers the replayed head while loading, other requests wait for the load (up to the trace
// timeout, then -32000), and a fixture that fails mid-replay still ends the process with exit 2.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { createApp } from '../src/server/app.ts';
import { LoadGate } from '../src/server/loading.ts';
import { freePort } from './helpers/anvil.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const SLOW = 60_000;
const post = (body: string): Request => new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('the app behind a load gate', () => {
  test('loading: health 503 with progress, eth_blockNumber the replayed head, a trace waits and is answered once ready', async () => {
    const gate = new LoadGate();
    const app = createApp({ gate, loadWaitMs: 0, maxBody: 65536 });
    gate.progress(3, 12, 3n);
    const health = await app.handle(new Request('http://localhost/health'));
    expect(health.status).toBe(503);
    expect(await health.text()).toBe('{"status":"loading","head":"0x3","replayed":3,"total":12}\n');
    expect(await (await app.handle(post('{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}'))).text()).toBe('{"jsonrpc":"2.0","id":9,"result":"0x3"}');
    const waiting = app.handle(post('{"jsonrpc":"2.0","id":1,"method":"trace_block","params":["0x1"]}'));
    const ctx = createContext(await loadChain(CANCUN), { log: () => {} });
    gate.open(ctx);
    const answer = await (await waiting).text();
    expect(answer).toStartWith('{"jsonrpc":"2.0","id":1,"result":[{"action"');
    const ready = await app.handle(new Request('http://localhost/health'));
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('{"status":"ready","head":"0xc","replayed":12,"total":12}\n');
    expect(await (await app.handle(post('{"jsonrpc":"2.0","id":9,"method":"eth_blockNumber"}'))).text()).toBe('{"jsonrpc":"2.0","id":9,"result":"0xc"}');
  }, SLOW);

  test('a request that waits past the deadline: -32000 naming the progress, for each message of a batch', async () => {
    const gate = new LoadGate();
    const app = createApp({ gate, loadWaitMs: 30, maxBody: 65536 });
    gate.progress(5, 54, 5n);
    const message = 'blocktrace is still replaying the fixture (block 5 of 54); GET /health says when it is ready';
    expect(await (await app.handle(post('{"jsonrpc":"2.0","id":"a","method":"trace_block","params":["0x9"]}'))).text()).toBe(`{"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"${message}"}}`);
    expect(await (await app.handle(post('[{"jsonrpc":"2.0","id":1,"method":"eth_call"},{"jsonrpc":"2.0","id":2,"method":"trace_block"}]'))).text()).toBe(
      `[{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"${message}"}},{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"${message}"}}]`,
    );
  });
});

describe('serve opens the port before the replay', () => {
  test('health answers as soon as serve listens; a request sent then gets the chain\'s answer; then ready', async () => {
    const port = await freePort();
    const proc = Bun.spawn([BUN, CLI, 'serve', CANCUN, '--port', String(port)], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' });
    try {
      const reader = proc.stderr.getReader();
      let seen = '';
      while (!seen.includes('listening on')) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`serve ended: ${seen}`);
        seen += new TextDecoder().decode(value);
      }
      const url = `http://127.0.0.1:${port}`;
      const first = await fetch(`${url}/health`);
      const state = (await first.json()) as { status: string };
      expect(['loading', 'ready']).toContain(state.status);
      expect(first.status).toBe(state.status === 'ready' ? 200 : 503);
      const answer = await (await fetch(`${url}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0xc",false]}' })).json();
      expect((answer as { result: { number: string } }).result.number).toBe('0xc');
      const ready = await fetch(`${url}/health`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { status: string }).status).toBe('ready');
    } finally {
      process.kill(proc.pid, 'SIGKILL');
      await proc.exited;
    }
  }, SLOW);

  test('a fixture whose replay fails after the port opened: the error line, the port closed, exit 2', async () => {
    const fx = JSON.parse(readFileSync(join(ROOT, 'golden/fixtures/prague-devnet/fixture.json'), 'utf8'));
    fx.blocks[2].stateRootCheck.recomputedCanonical = '0x' + '11'.repeat(32);
    const path = join(mkdtempSync(join(tmpdir(), 'blocktrace-load-')), 'badroot.json');
    writeFileSync(path, JSON.stringify(fx));
    const port = await freePort();
    const proc = Bun.spawn([BUN, CLI, 'serve', path, '--port', String(port)], { cwd: ROOT, stdout: 'ignore', stderr: 'pipe' });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n').filter((l) => !l.startsWith('npm warn'));
    expect(lines[0]).toStartWith('blocktrace listening on http://127.0.0.1:');
    expect(lines[1]).toMatch(/^blocktrace: .*badroot\.json: block 3 \(0x[0-9a-f]{64}\) stateRoot mismatch: expected 0x1111/);
    expect(lines.length).toBe(2);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, SLOW);
});
