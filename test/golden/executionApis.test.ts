// The execution-apis PR #855 chain (golden/execution-apis-pr855): every recorded callTracer exchange
// (debug_traceBlockByNumber / ByHash / debug_traceTransaction) byte for byte, and the trace_block
// reward traces of its proof-of-work blocks checked against the ethash reward rules.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange, requestMethods } from '../../src/golden/run.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const DIR = join(import.meta.dir, '../../golden/execution-apis-pr855');

let ctx: RpcContext | undefined;
const context = async (): Promise<RpcContext> => (ctx ??= createContext(await loadChain(DIR), { log: () => {} }));

// Read and compared by `blocktrace check`'s own code (src/golden/), one test per exchange.
describe('execution-apis pr-855 callTracer exchanges', () => {
  const { exchanges } = readGolden(DIR);
  test('all eleven are here, all callTracer traces', () => {
    expect(new Set(exchanges.map((e) => e.file)).size).toBe(11);
    for (const e of exchanges) expect(e.request).toContain('"tracer":"callTracer"');
    expect(new Set(exchanges.flatMap((e) => requestMethods(e.request)))).toEqual(
      new Set(['debug_traceBlockByNumber', 'debug_traceBlockByHash', 'debug_traceTransaction']),
    );
  });
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(await context(), exchange, 'bytes')).toBeUndefined());
  }
});

const ETHER = 10n ** 18n;
// genesis.json: byzantiumBlock 9, constantinopleBlock 12, mergeNetsplitBlock 36 (Paris).
// the chain (golden/execution-apis-pr855/chain.rlp) holds 18 uncles in blocks 3–34.
const UNCLES = 18;
const baseReward = (n: bigint) => (n < 9n ? 5n * ETHER : n < 12n ? 3n * ETHER : 2n * ETHER);

describe('execution-apis pr-855 reward traces', () => {
  test('block and uncle rewards of every pre-merge block, none after the merge', async () => {
    const c = await context();
    let uncleTraces = 0;
    for (let n = 1n; n <= 37n; n++) {
      const block = c.chain.blockByNumber(n)!;
      const uncles = block.block.uncleHeaders;
      const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'trace_block', params: ['0x' + n.toString(16)] });
      const traces = JSON.parse((await dispatch(request, c))!).result as { type: string; action: Record<string, string> }[];
      const rewards = traces.filter((t) => t.type === 'reward').map((t) => t.action);
      if (n >= 36n) {
        expect(rewards).toEqual([]);
        continue;
      }
      const base = baseReward(n);
      const expected = [
        { author: block.block.header.coinbase.toString(), rewardType: 'block', value: '0x' + (base + (base / 32n) * BigInt(uncles.length)).toString(16) },
        ...uncles.map((u) => ({ author: u.coinbase.toString(), rewardType: 'uncle', value: '0x' + (((u.number + 8n - n) * base) / 8n).toString(16) })),
      ];
      expect(rewards).toEqual(expected);
      uncleTraces += uncles.length;
      expect(traces.slice(-rewards.length).every((t) => t.type === 'reward')).toBe(true);
    }
    expect(uncleTraces).toBe(UNCLES);
  }, 120000);
});
