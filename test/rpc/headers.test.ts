// eth_getHeaderByNumber/ByHash and the eth_getRawTransaction* methods, against go-ethereum's own
// recordings of the hive chain: a header is the header fields of the recorded eth_getBlockByNumber
// answer (RPCMarshalBlock is RPCMarshalHeader plus size, transactions, uncles and withdrawals), and
// a raw transaction is the recorded debug_getRawTransaction answer.
import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const EXAPI = join(import.meta.dir, '../../golden/execution-apis/tests');
const BODY_FIELDS = new Set(['size', 'transactions', 'uncles', 'withdrawals']);
let ctx: RpcContext;
const call = async (method: string, params: unknown[]): Promise<{ result?: unknown; error?: unknown }> =>
  JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx))!);

beforeAll(async () => {
  ctx = createContext(await loadChain(EXAPI), { log: () => {} });
}, 60_000);

describe('eth_getHeaderByNumber / ByHash: the header fields of recorded eth_getBlockByNumber answers', () => {
  const recorded = readGolden(join(EXAPI, 'eth_getBlockByNumber')).exchanges;
  test('there are blocks to compare', () => expect(recorded.length).toBeGreaterThan(5));
  for (const exchange of recorded) {
    test(exchange.name, async () => {
      const request = JSON.parse(exchange.request) as { params: unknown[] };
      const response = JSON.parse(exchange.response!) as { result: Record<string, unknown> | null };
      const byNumber = await call('eth_getHeaderByNumber', [request.params[0]]);
      if (response.result === null) {
        expect(byNumber.result).toBeNull();
        return;
      }
      const header = Object.fromEntries(Object.entries(response.result).filter(([k]) => !BODY_FIELDS.has(k)));
      // the same keys in the same (sorted) order, the same values
      expect(JSON.stringify(byNumber.result)).toBe(JSON.stringify(header));
      expect(JSON.stringify((await call('eth_getHeaderByHash', [response.result['hash']])).result)).toBe(JSON.stringify(header));
    });
  }
  test('an unknown hash or number is null', async () => {
    expect((await call('eth_getHeaderByHash', [`0x${'11'.repeat(32)}`])).result).toBeNull();
    expect((await call('eth_getHeaderByNumber', ['0x1000'])).result).toBeNull();
  });
});

describe('eth_getRawTransactionByHash / ByBlockNumberAndIndex / ByBlockHashAndIndex', () => {
  const TX = '0xc1d605c6612a5fe84dc95810030bfe5b1d327652b381bc695e28f50d13b2b09e';
  const recorded = readGolden(join(EXAPI, 'debug_getRawTransaction', 'get-tx.io')).exchanges[0]!;
  const raw = (JSON.parse(recorded.response!) as { result: string }).result;

  test('every way to name the transaction gives debug_getRawTransaction\'s recorded bytes', async () => {
    expect((await call('eth_getRawTransactionByHash', [TX])).result).toBe(raw);
    const tx = (await call('eth_getTransactionByHash', [TX])).result as { blockHash: string; blockNumber: string; transactionIndex: string };
    expect((await call('eth_getRawTransactionByBlockNumberAndIndex', [tx.blockNumber, tx.transactionIndex])).result).toBe(raw);
    expect((await call('eth_getRawTransactionByBlockHashAndIndex', [tx.blockHash, tx.transactionIndex])).result).toBe(raw);
  });

  test('nothing found is "0x", as a nil hexutil.Bytes is written', async () => {
    expect((await call('eth_getRawTransactionByHash', [`0x${'22'.repeat(32)}`])).result).toBe('0x');
    expect((await call('eth_getRawTransactionByBlockNumberAndIndex', ['0x1', '0x100'])).result).toBe('0x');
    expect((await call('eth_getRawTransactionByBlockHashAndIndex', [`0x${'33'.repeat(32)}`, '0x0'])).result).toBe('0x');
  });

  test('a hash without 0x is go-ethereum\'s -32602', async () => {
    expect(await dispatch('{"jsonrpc":"2.0","id":1,"method":"eth_getRawTransactionByHash","params":["1000000000000000000000000000000000000000000000000000000000000001"]}', ctx)).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash"}}',
    );
  });
});
