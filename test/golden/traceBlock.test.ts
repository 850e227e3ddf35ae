// Every trace_block exchange anvil recorded for the visible chains (golden/anvil/<chain>/), replayed
// from the chain's fixture (golden/fixtures/<chain>/fixture.json) through dispatch: byte for byte.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const CHAINS: [string, number][] = [['cancun-devnet', 13], ['prague-devnet', 8]];

for (const [chain, blocks] of CHAINS) {
  describe(`anvil ${chain} trace_block`, () => {
    const dir = join(GOLDEN, 'anvil', chain);
    const requests = readdirSync(dir).filter((f) => f.endsWith('.trace_block.request.json')).sort();
    let ctx: RpcContext | undefined;
    const context = async (): Promise<RpcContext> =>
      (ctx ??= createContext(await loadChain(join(GOLDEN, 'fixtures', chain, 'fixture.json')), { log: () => {} }));

    test('one recording per block', () => expect(requests.length).toBe(blocks));
    for (const file of requests) {
      test(file.replace('.request.json', ''), async () => {
        const request = readFileSync(join(dir, file), 'utf8');
        const expected = readFileSync(join(dir, file.replace('.request.json', '.response.json')), 'utf8');
        expect(await dispatch(request, await context())).toBe(expected);
      });
    }
  });
}
