// trace_filter's range limit (reth trace.rs: DEFAULT_MAX_TRACE_FILTER_BLOCKS = 100), on a fake chain
// long enough to ask past it; the rest of trace_filter is checked against anvil's recordings
// (test/golden/traceReplay.test.ts).
import { expect, test } from 'bun:test';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { chainBlock, fakeChain, fakeContext } from './fakeChain.ts';

const ask = (params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trace_filter', params: [params] });

test('more than 100 blocks: -32602 with reth\'s text; exactly 100 apart is allowed', async () => {
  const ctx = fakeContext({ ...fakeChain(), head: chainBlock(500n) });
  expect(await dispatch(ask({ fromBlock: '0x0', toBlock: '0x65' }), ctx)).toBe(
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Block range too large; currently limited to 100 blocks"}}',
  );
  expect(await dispatch(ask({ toBlock: '0x1f4' }), ctx)).toContain('Block range too large');
  // 0x0..0x64 passes the limit; the fake chain has only blocks 0..2, so block 3 is not found
  expect(await dispatch(ask({ fromBlock: '0x0', toBlock: '0x64' }), ctx)).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"block not found: 0x3"}}');
});
