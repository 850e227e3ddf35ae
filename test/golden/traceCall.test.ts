// debug_traceCall (go-ethereum's bytes) against anvil 1.7.1's answers for the same calls
// (golden/anvil-trace/<chain>/call: every transaction of the shipped chains asked as a call on the
// state before its block, with callTracer, withLog, prestateTracer and diff mode, plus overrides).
// anvil's debug_* differs from go-ethereum in known ways (README "Tracing calls"); the expected value
// is anvil's answer with go-ethereum's rule applied where it derives from the request, compared value
// for value (anvil's log keys are in another order; go-ethereum's key order is pinned by the
// execution-apis and go-ethereum tracer goldens):
// - callTracer: the top frame's `gas` is the call's gas (go-ethereum), not gas minus intrinsic gas;
// - prestateTracer: an account that did not exist is left out (anvil lists `{"balance":"0x0"}`),
//   and anvil writes no `codeHash` (go-ethereum >= 1.16.3 does), so ours is left out of the comparison;
//   in diff mode go-ethereum's `post` has `{}` for an account touched and removed empty (a precompile,
//   an empty coinbase), which anvil leaves out: such entries are left out on both sides.
// call-anvil-differs/ holds the answers where go-ethereum's cannot be derived from anvil's.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { sortedGoJson } from '../helpers/goJsonSorted.ts';
import { contextFor } from '../helpers/chainContext.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const SLOW = 60_000;

type Json = Record<string, unknown>;

function gethExpectation(request: Json, response: Json): Json {
  const [call, , options] = request['params'] as [Json, unknown, Json];
  const result = response['result'] as Json | undefined;
  if (result === undefined) return response;
  if (options['tracer'] === 'callTracer') {
    if (typeof call['gas'] === 'string') result['gas'] = call['gas'];
    return response;
  }
  const diff = (options['tracerConfig'] as Json | undefined)?.['diffMode'] === true;
  const pre = (diff ? result['pre'] : result) as Record<string, Json>;
  for (const [address, account] of Object.entries(pre)) {
    if (Object.keys(account).length === 1 && account['balance'] === '0x0') delete pre[address];
  }
  return response;
}

/** Diff mode: go-ethereum writes `{}` in `post` for an account touched and removed empty; anvil leaves it out. */
function withoutEmptyPost(response: Json): Json {
  const post = (response['result'] as Json | undefined)?.['post'] as Record<string, Json> | undefined;
  for (const [address, account] of Object.entries(post ?? {})) if (Object.keys(account).length === 0) delete post![address];
  return response;
}

function withoutCodeHash(response: Json): Json {
  const result = response['result'] as Json | undefined;
  if (result === undefined) return response;
  const maps = 'pre' in result && 'post' in result ? [result['pre'], result['post']] : [result];
  for (const map of maps as Record<string, Json>[]) for (const account of Object.values(map)) delete account['codeHash'];
  return response;
}


for (const chain of ['prague-devnet', 'cancun-devnet']) {
  const fixture = join(GOLDEN, 'fixtures', chain, 'fixture.json');
  describe(`anvil ${chain} debug_traceCall, go-ethereum's rules applied`, () => {
    const { exchanges } = readGolden(join(GOLDEN, 'anvil-trace', chain, 'call'));
    test('recorded', () => expect(exchanges.length).toBeGreaterThan(100));
    for (const exchange of exchanges) {
      test(exchange.name, async () => {
        const request = JSON.parse(exchange.request) as Json;
        const expected = withoutEmptyPost(gethExpectation(request, JSON.parse(exchange.response ?? "null") as Json));
        const answer = await dispatch(exchange.request, await contextFor(fixture));
        const ours = withoutEmptyPost(withoutCodeHash(JSON.parse(answer ?? 'null') as Json));
        expect(sortedGoJson(ours)).toBe(sortedGoJson(expected));
      }, SLOW);
    }
  });
}
