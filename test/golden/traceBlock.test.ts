// Every trace_block exchange anvil recorded for the visible chains (golden/anvil/<chain>/), replayed
// from the chain's fixture (golden/fixtures/<chain>/fixture.json) through dispatch: byte for byte.
// Read and compared by `blocktrace check`'s own code (src/golden/), one test per exchange.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange, requestMethods } from '../../src/golden/run.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const CHAINS: [string, number][] = [['cancun-devnet', 13], ['prague-devnet', 8]];

for (const [chain, blocks] of CHAINS) {
  describe(`anvil ${chain} trace_block`, () => {
    const { exchanges } = readGolden(join(GOLDEN, 'anvil', chain));
    let ctx: RpcContext | undefined;
    const context = async (): Promise<RpcContext> =>
      (ctx ??= createContext(await loadChain(join(GOLDEN, 'fixtures', chain, 'fixture.json')), { log: () => {} }));

    test('one trace_block recording per block', () => {
      expect(exchanges.map((e) => requestMethods(e.request))).toEqual(Array.from({ length: blocks }, () => ['trace_block']));
    });
    for (const exchange of exchanges) {
      test(exchange.name, async () => expect(await checkExchange(await context(), exchange, 'bytes')).toBeUndefined());
    }
  });
}
