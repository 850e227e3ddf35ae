// eth_simulateV1 against go-ethereum's recordings (execution-apis tests/eth_simulateV1, byte for
// byte), and what a simulation must not do: leave anything behind in the chain.
import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange } from '../../src/golden/run.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const EXAPI = join(import.meta.dir, '../../golden/execution-apis/tests');
let ctx: RpcContext;
beforeAll(async () => {
  ctx = createContext(await loadChain(EXAPI), { log: () => {} });
}, 60_000);

describe('go-ethereum execution-apis recordings: eth_simulateV1', () => {
  const exchanges = readGolden(join(EXAPI, 'eth_simulateV1')).exchanges;
  test('all 91 are here', () => expect(exchanges.length).toBe(91));
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(ctx, exchange, 'bytes')).toBeUndefined(), 60_000);
  }
});

describe('a simulation leaves nothing behind', () => {
  const call = (method: string, params: unknown[]) => dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx);
  const RICH = '0xc000000000000000000000000000000000000000';
  test('balances, nonces, code and later calls are those of the chain', async () => {
    const before = await Promise.all([call('eth_getBalance', [RICH, 'latest']), call('eth_getTransactionCount', [RICH, 'latest']), call('eth_getCode', ['0xc200000000000000000000000000000000000000', 'latest'])]);
    const simulated = await call('eth_simulateV1', [
      {
        blockStateCalls: [
          {
            stateOverrides: { [RICH]: { balance: '0xde0b6b3a7640000' }, '0xc200000000000000000000000000000000000000': { code: '0x60006000f3' } },
            calls: [{ from: RICH, to: '0xc100000000000000000000000000000000000000', value: '0x1' }, { from: RICH, to: '0xc200000000000000000000000000000000000000' }],
          },
          { calls: [{ from: RICH, to: '0xc100000000000000000000000000000000000000', value: '0x2' }] },
        ],
      },
      'latest',
    ]);
    expect(simulated).toContain('"status":"0x1"');
    const after = await Promise.all([call('eth_getBalance', [RICH, 'latest']), call('eth_getTransactionCount', [RICH, 'latest']), call('eth_getCode', ['0xc200000000000000000000000000000000000000', 'latest'])]);
    expect(after).toEqual(before);
    // and the chain's own blocks still trace as recorded
    const trace = await call('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]);
    expect(trace).toContain('"result"');
  });

  test('bad input: go-ethereum\'s codes and texts', async () => {
    expect(await call('eth_simulateV1', [{ blockStateCalls: [] }, 'latest'])).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"empty input"}}');
    const many = Array.from({ length: 257 }, () => ({}));
    expect(await call('eth_simulateV1', [{ blockStateCalls: many }, 'latest'])).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-38026,"message":"too many blocks"}}');
    expect(await call('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: '0x1' } }] }, 'latest'])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-38020,"message":"block numbers must be in order: 1 \\u003c= 54"}}',
    );
    expect(await call('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { time: '0x1' } }] }, 'latest'])).toContain('"code":-38021');
    expect(await call('eth_simulateV1', [{ blockStateCalls: [{ blockOverrides: { number: '0x200' } }] }, 'latest'])).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-38026,"message":"too many blocks"}}');
    const calls = Array.from({ length: 5001 }, () => ({ from: RICH }));
    expect(await call('eth_simulateV1', [{ blockStateCalls: [{ calls }] }, 'latest'])).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-38026,"message":"too many calls in block: 5001 \\u003e 5000"}}');
    // and the server still answers
    expect(await call('eth_blockNumber', [])).toBe('{"jsonrpc":"2.0","id":1,"result":"0x36"}');
  });
});
