// Real clients on the surface that changes over time (issue 24): viem's filters (createEventFilter,
// createBlockFilter, getFilterChanges, getFilterLogs) against `blocktrace serve` on a fixture;
// viem's watchBlocks over its webSocket() transport and ethers' WebSocketProvider against
// `blocktrace serve --upstream` of a real anvil that then mines a block; `cast send` through
// blocktrace landing on that anvil; a browser Origin --cors does not name refused at the handshake;
// bad filter input answered with go-ethereum's errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { WebSocketProvider } from 'ethers';
import { createPublicClient, http, webSocket, type PublicClient } from 'viem';
import { startBlocktrace, type Server } from '../bench/blocktrace.ts';
import { mineCorpusChain, rpc, startAnvil, type Anvil } from './helpers/anvil.ts';

const ROOT = join(import.meta.dir, '..');
const FIXTURE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
const CAST = join(ROOT, 'node_modules/@foundry-rs/cast-linux-amd64/bin/cast');
/** anvil's first development account. */
const DEV_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const SLOW = 120_000;

let fixtureBt: Server;
let anvil: Anvil;
let upstreamBt: Server;

beforeAll(async () => {
  [fixtureBt, anvil] = await Promise.all([startBlocktrace([process.execPath, 'src/cli.ts'], FIXTURE, ROOT), startAnvil(FIXTURE)]);
  await mineCorpusChain(anvil.url, FIXTURE);
  upstreamBt = await startBlocktrace([process.execPath, 'src/cli.ts'], '', ROOT, 'blocktrace-upstream', ['--upstream', anvil.url, '--forward', 'evm_mine']);
}, SLOW);

afterAll(async () => {
  await fixtureBt?.child.stop();
  await upstreamBt?.child.stop();
  await anvil?.stop();
});

const wsUrl = (server: Server): string => server.url.replace('http://', 'ws://');

describe('filters on a fixture chain (viem)', () => {
  let client: PublicClient;
  beforeAll(() => {
    client = createPublicClient({ transport: http(fixtureBt.url) });
  });

  test('createEventFilter from block 0: getFilterLogs is eth_getLogs, getFilterChanges is empty (the chain never grows)', async () => {
    const filter = await client.createEventFilter({ fromBlock: 0n });
    const logs = await client.getFilterLogs({ filter });
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).toEqual(await client.getLogs({ fromBlock: 0n }));
    expect(await client.getFilterChanges({ filter })).toEqual([]);
    expect(await client.uninstallFilter({ filter })).toBe(true);
    expect(await client.uninstallFilter({ filter })).toBe(false);
  });

  test('createBlockFilter: no new blocks', async () => {
    const filter = await client.createBlockFilter();
    expect(filter.id).toMatch(/^0x[0-9a-f]{1,32}$/);
    expect(await client.getFilterChanges({ filter })).toEqual([]);
  });

  test('an unknown filter id is go-ethereum\'s "filter not found"; the server keeps serving', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_getFilterChanges","params":["0x1234"]}';
    const answer = await (await fetch(fixtureBt.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
    expect(answer).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"filter not found"}}');
    expect(await client.getBlockNumber()).toBe(7n);
  });
});

describe('WebSocket', () => {
  test('the same bytes as HTTP, batches included', async () => {
    const bodies = [
      '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["0x1",true]}',
      '[{"jsonrpc":"2.0","id":"a","method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"trace_block","params":["0x2"]}]',
      '{"jsonrpc":"2.0","id":3,"method":"nope"}',
      'not json',
    ];
    const ws = new WebSocket(wsUrl(fixtureBt));
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    for (const body of bodies) {
      const viaHttp = await (await fetch(fixtureBt.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
      const viaWs = await new Promise<string>((resolve) => {
        ws.onmessage = (event) => resolve(String(event.data));
        ws.send(body);
      });
      expect(viaWs).toBe(viaHttp);
    }
    ws.close();
  });

  test('a browser origin that --cors does not name is refused at the handshake', async () => {
    const refused = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(wsUrl(fixtureBt), { headers: { Origin: 'https://evil.example' } } as unknown as string[]);
      ws.onopen = () => {
        ws.close();
        resolve(false);
      };
      ws.onerror = () => resolve(true);
    });
    expect(refused).toBe(true);
    const response = await fetch(fixtureBt.url, { headers: { upgrade: 'websocket', connection: 'Upgrade', origin: 'https://evil.example', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
    expect(response.status).toBe(403);
  });

  test('viem watchBlocks over webSocket(): a block mined on the upstream anvil arrives', async () => {
    const client = createPublicClient({ transport: webSocket(wsUrl(upstreamBt)) });
    const seen: bigint[] = [];
    const unwatch = client.watchBlocks({ onBlock: (block) => void seen.push(block.number!) });
    await Bun.sleep(300);
    const before = BigInt(await rpc<string>(anvil.url, 'eth_blockNumber'));
    await rpc(anvil.url, 'evm_mine');
    for (let i = 0; i < 60 && !seen.includes(before + 1n); i++) await Bun.sleep(100);
    unwatch();
    expect(seen).toContain(before + 1n);
  }, SLOW);

  test('ethers WebSocketProvider: block number, a call, a block subscription', async () => {
    const provider = new WebSocketProvider(wsUrl(upstreamBt));
    try {
      expect(await provider.getBlockNumber()).toBe(Number(BigInt(await rpc<string>(anvil.url, 'eth_blockNumber'))));
      expect(await provider.call({ to: '0x0000000000000000000000000000000000000004', data: '0x1234' })).toBe('0x1234');
      const mined = new Promise<number>((resolve) => void provider.once('block', (n: number) => resolve(n)));
      await Bun.sleep(300);
      await rpc(anvil.url, 'evm_mine');
      expect(await mined).toBeGreaterThan(0);
    } finally {
      await provider.destroy();
    }
  }, SLOW);
});

describe('writes in upstream mode', () => {
  test('cast send through blocktrace lands on the upstream anvil', async () => {
    const to = '0x000000000000000000000000000000000000c0de';
    const before = BigInt(await rpc<string>(anvil.url, 'eth_getBalance', [to, 'latest']));
    // --async: the corpus anvil runs without automine (`--no-mining` in its fixture's anvil.args), so the block is mined after
    const proc = Bun.spawn([CAST, 'send', '--async', '--rpc-url', upstreamBt.url, '--private-key', DEV_KEY, to, '--value', '12345'], { stdout: 'pipe', stderr: 'pipe' });
    const code = await proc.exited;
    expect(await new Response(proc.stderr).text()).toBe('');
    expect(code).toBe(0);
    const hash = (await new Response(proc.stdout).text()).trim();
    expect(await rpc(anvil.url, 'eth_getTransactionByHash', [hash])).not.toBeNull();
    await rpc(anvil.url, 'evm_mine');
    expect(BigInt(await rpc<string>(anvil.url, 'eth_getBalance', [to, 'latest'])) - before).toBe(12345n);
  }, SLOW);

  test('on a fixture chain a write is a clear error', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"eth_sendRawTransaction","params":["0x00"]}';
    const answer = await (await fetch(fixtureBt.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
    expect(answer).toContain('the chain is a read-only fixture');
  });
});
