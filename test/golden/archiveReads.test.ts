// The read-only archive methods of issue 15 (logs, by-block reads, fees, node status, raw
// encodings) against recordings of real clients, through `blocktrace check`'s own code:
// - go-ethereum's execution-apis exchanges of these methods on the hive chain, byte for byte;
// - anvil 1.7.1 serving the shipped fixture chains (golden/anvil-eth/<chain>/): `reads/` byte for
//   byte, `reads-semantic/` value for value (anvil's serde key order differs from go-ethereum's,
//   whose order the execution-apis bytes fix); `reads-anvil-differs/` is where go-ethereum decides
//   (README "Reads beyond tracing"), kept for reference and not compared.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange, requestMethods } from '../../src/golden/run.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { upstreamForwarder } from '../../src/upstream/forward.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const EXAPI = join(GOLDEN, 'execution-apis/tests');
const SLOW = 60_000;

const contexts = new Map<string, Promise<RpcContext>>();
const context = (fixture: string): Promise<RpcContext> => {
  if (!contexts.has(fixture)) contexts.set(fixture, loadChain(fixture).then((chain) => createContext(chain, { log: () => {} })));
  return contexts.get(fixture)!;
};

const OURS = /^(eth_getLogs|eth_getBlockReceipts|eth_getBlockTransactionCountBy|eth_getTransactionByBlock|eth_feeHistory|eth_blobBaseFee|eth_baseFee|eth_syncing|debug_getRaw)/;

describe('go-ethereum execution-apis recordings', () => {
  const exchanges = readGolden(EXAPI).exchanges.filter((e) => requestMethods(e.request).some((m) => OURS.test(m)));
  test('all 38 are here', () => expect(exchanges.length).toBe(38));
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(await context(EXAPI), exchange, 'bytes')).toBeUndefined(), SLOW);
  }
});

// eth_call and eth_estimateGas (go-ethereum's binary search to the unit). Not copied:
// estimate-with-eip7702.io, a call with an EIP-7702 authorizationList, which blocktrace refuses
// (-32602, README "Methods").
describe('go-ethereum execution-apis recordings: eth_call, eth_estimateGas', () => {
  const exchanges = readGolden(EXAPI).exchanges.filter((e) => requestMethods(e.request).some((m) => m === 'eth_call' || m === 'eth_estimateGas'));
  test('all 11 are here', () => expect(exchanges.length).toBe(11));
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(await context(EXAPI), exchange, 'bytes')).toBeUndefined(), SLOW);
  }
});

for (const chain of ['prague-devnet', 'cancun-devnet']) {
  const fixture = join(GOLDEN, 'fixtures', chain, 'fixture.json');
  for (const [dir, mode, least] of [['reads', 'bytes', 20], ['state', 'bytes', 20], ['call', 'bytes', 20], ['call-overrides', 'bytes', 8], ['reads-semantic', 'semantic', 20]] as const) {
    describe(`anvil ${chain} ${dir} (${mode})`, () => {
      const { exchanges } = readGolden(join(GOLDEN, 'anvil-eth', chain, dir));
      test('recorded', () => expect(exchanges.length).toBeGreaterThan(least));
      for (const exchange of exchanges) {
        test(exchange.name, async () => expect(await checkExchange(await context(fixture), exchange, mode)).toBeUndefined(), SLOW);
      }
    });
  }
}

const call = async (method: string, params: unknown[]): Promise<unknown> =>
  JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }), await context(join(GOLDEN, 'fixtures/prague-devnet/fixture.json'))))!);

describe('go-ethereum rules without a recording (eth/filters/api.go, filter.go; feehistory.go)', () => {
  test('eth_getLogs: pending, too many topics, unknown block hash', async () => {
    expect(await call('eth_getLogs', [{ fromBlock: 'pending' }])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'pending logs are not supported' } });
    expect(await call('eth_getLogs', [{ topics: [null, null, null, null, null] }])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'invalid argument 0: exceed max topics' } });
    expect(await call('eth_getLogs', [{ blockHash: `0x${'11'.repeat(32)}` }])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'unknown block' } });
    expect(await call('eth_getLogs', [{ address: 5 }])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'invalid argument 0: invalid addresses in query' } });
  }, SLOW);

  test('eth_getLogs: trailing null topics require that many topics', async () => {
    const all = (await call('eth_getLogs', [{ fromBlock: 'earliest' }])) as { result: { topics: string[] }[] };
    const three = (await call('eth_getLogs', [{ fromBlock: 'earliest', topics: [null, null, null] }])) as { result: unknown[] };
    expect(three.result.length).toBe(all.result.filter((l) => l.topics.length >= 3).length);
    expect(three.result.length).toBeLessThan(all.result.length);
  }, SLOW);

  test('eth_feeHistory: percentile errors', async () => {
    expect(await call('eth_feeHistory', ['0x2', 'latest', [50, 10]])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'invalid reward percentile: #0:50.000000 >= #1:10.000000' } });
    expect(await call('eth_feeHistory', ['0x2', 'latest', [101]])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'invalid reward percentile: 101.000000' } });
    expect(await call('eth_feeHistory', ['0x2', '0x99', []])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'request beyond head block: requested 153, head 7' } });
    expect(await call('eth_feeHistory', ['0x2', 'latest'])).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'missing value for required argument 2' } });
  }, SLOW);
});

describe('writes', () => {
  test('refused on a fixture chain with -32000 naming the method', async () => {
    for (const method of ['eth_sendRawTransaction', 'eth_sendTransaction', 'eth_sign', 'eth_signTypedData_v4']) {
      const answer = (await call(method, ['0x02'])) as { error: { code: number; message: string } };
      expect(answer.error.code).toBe(-32000);
      expect(answer.error.message).toStartWith(`${method} is not available: the chain is a read-only fixture`);
    }
  }, SLOW);

  test('upstream mode forwards them, and the reads, to the node', () => {
    const forwarder = upstreamForwarder({ url: 'http://127.0.0.1:1' } as UpstreamClient);
    for (const method of ['eth_sendRawTransaction', 'eth_sendTransaction', 'eth_getLogs', 'eth_gasPrice']) expect(forwarder.takes(method)).toBe(true);
  });
});
