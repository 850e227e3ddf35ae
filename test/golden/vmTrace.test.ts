// Parity's vmTrace (issue 38, part D) against anvil 1.7.1 serving the shipped fixture chains, which
// writes it with revm-inspectors' builder as reth does:
// - golden/anvil-vmtrace/<chain>/replay: anvil's trace_replayBlockTransactions answers, byte for byte
//   (every block with vmTrace alone and with every trace type; responses gzip-compressed), prague
//   0x2 with the one documented difference applied (test/helpers/vmTraceDifferences.ts);
// - trace_replayTransaction of every transaction: anvil has no such method; reth answers the same
//   TraceResults without `transactionHash`, so the expected bytes are anvil's block entry without it;
// - trace_call and trace_callMany: anvil has neither; a transaction asked as a call on the state
//   before it (the first of its block) whose code reads nothing of the block, the sender's balance
//   or the gas price gives the vmTrace anvil recorded for the transaction.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goJson } from '../../src/encoding/json.ts';
import { type Exchange, readGolden } from '../../src/golden/layouts.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { contextFor } from '../helpers/chainContext.ts';
import { withHistoryRead } from '../helpers/vmTraceDifferences.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const SLOW = 120_000;

interface FixtureBlock {
  readonly number: string;
  readonly parentHash: string;
  readonly block: { transactions: { hash: string; from: string; to: string | null; input: string; value: string; gas: string }[] };
}

const call = async (ctx: RpcContext, method: string, params: unknown[]): Promise<string> =>
  (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), ctx))!;
const answer = (result: unknown): string => `{"jsonrpc":"2.0","id":1,"result":${goJson(result)}}`;

/** A context of the chain without an answer size limit (anvil's cancun 0xa answer is 32 MB). */
async function unlimited(fixture: string): Promise<RpcContext> {
  return createContext((await contextFor(fixture)).chain, { log: () => {}, maxResponse: 0 });
}

/** Opcodes whose result a call at the parent block may see otherwise than the transaction did. */
const ENV_READS = new Set(['NUMBER', 'TIMESTAMP', 'COINBASE', 'BASEFEE', 'GASPRICE', 'DIFFICULTY', 'GASLIMIT', 'BLOCKHASH', 'BLOBBASEFEE', 'BLOBHASH', 'BALANCE', 'SELFBALANCE']);
interface VmTrace {
  readonly code: string;
  readonly ops: { op: string; sub: VmTrace | null }[];
}
const readsEnv = (t: VmTrace): boolean => t.ops.some((o) => ENV_READS.has(o.op) || (o.sub !== null && readsEnv(o.sub)));

for (const chain of ['cancun-devnet', 'prague-devnet']) {
  const fixture = join(GOLDEN, 'fixtures', chain, 'fixture.json');
  const blocks = (JSON.parse(readFileSync(fixture, 'utf8')) as { blocks: FixtureBlock[] }).blocks;
  const parentOf = (block: string): string => blocks.find((b) => b.number === block)!.parentHash;
  // the responses are gzip-compressed pairs (NAME.response.json.gz), read by the golden walker
  const recorded = readGolden(join(GOLDEN, 'anvil-vmtrace', chain, 'replay')).exchanges;
  /** The recorded answer as reth gives it (the documented difference made where it applies). */
  const expected = (r: Exchange): string => {
    const block = (JSON.parse(r.request) as { params: [string] }).params[0];
    return chain === 'prague-devnet' && block === '0x2' ? withHistoryRead(r.response!, parentOf(block)) : r.response!;
  };

  describe(`anvil ${chain}: trace_replayBlockTransactions with vmTrace (bytes)`, () => {
    test('recorded', () => {
      expect(recorded.length).toBeGreaterThan(10);
      expect(new Set(recorded.map((r) => r.layout))).toEqual(new Set(['packed']));
    });
    for (const r of recorded) {
      test(r.name, async () => expect(await dispatch(r.request, await unlimited(fixture))).toBe(expected(r)), SLOW);
    }
  });

  describe(`${chain}: vmTrace of every transaction from anvil's block answers`, () => {
    test('trace_replayTransaction: TraceResults without transactionHash (vmTrace alone and with every type)', async () => {
      const ctx = await unlimited(fixture);
      let n = 0;
      for (const r of recorded) {
        const types = (JSON.parse(r.request) as { params: [string, string[]] }).params[1];
        for (const entry of (JSON.parse(expected(r)) as { result: Record<string, unknown>[] }).result) {
          const { transactionHash, ...results } = entry;
          expect(await call(ctx, 'trace_replayTransaction', [transactionHash, types])).toBe(answer(results));
          n++;
        }
      }
      expect(n).toBeGreaterThan(100);
    }, 600_000);

    test('trace_call and trace_callMany: a first transaction asked as a call at its parent block', async () => {
      const ctx = await unlimited(fixture);
      let n = 0;
      for (const r of recorded.filter((x) => x.name.endsWith('.vmTrace'))) {
        const [entry] = (JSON.parse(expected(r)) as { result: { transactionHash: string; output: string; vmTrace: VmTrace }[] }).result;
        if (entry === undefined || entry.vmTrace.ops.length === 0 || readsEnv(entry.vmTrace)) continue;
        const block = blocks.find((b) => b.block.transactions[0]?.hash === entry.transactionHash)!;
        const tx = block.block.transactions[0]!;
        const args = { from: tx.from, ...(tx.to === null ? {} : { to: tx.to }), input: tx.input, value: tx.value, gas: tx.gas };
        const parent = `0x${(BigInt(block.number) - 1n).toString(16)}`;
        const want = { output: entry.output, stateDiff: null, trace: [], vmTrace: entry.vmTrace };
        expect(await call(ctx, 'trace_call', [args, ['vmTrace'], parent])).toBe(answer(want));
        // each call runs on the state the one before left; only the calls that ask for it get a vmTrace
        const many = JSON.parse(await call(ctx, 'trace_callMany', [[[args, ['vmTrace']], [args, ['trace']]], parent])) as { result: unknown[] };
        expect(goJson(many.result[0])).toBe(goJson(want));
        expect((many.result[1] as { vmTrace: unknown }).vmTrace).toBeNull();
        n++;
      }
      expect(n).toBeGreaterThan(0);
    }, SLOW);
  });
}

describe("anvil: the ways an op fails or a call goes that the shipped chains do not reach (golden/anvil-vmtrace/edges, bytes)", () => {
  // memory, operand and copy-cost failures, stack underflow and overflow, bad jumps, undefined
  // opcodes, failing creations, precompile calls with and without value, an unpayable transfer,
  // a call with its arguments alone on the stack, reth's STOP rule (test/helpers/vmTraceEdges.ts)
  const dir = join(GOLDEN, 'anvil-vmtrace', 'edges');
  const recorded = readGolden(join(dir, 'replay')).exchanges;
  test('recorded', () => expect(recorded.length).toBeGreaterThan(10));
  for (const r of recorded) {
    test(r.name, async () => expect(await dispatch(r.request, await unlimited(join(dir, 'fixture.json')))).toBe(r.response!), SLOW);
  }
  // the Parity traces of the same calls: a precompile call that moves value is a trace in
  // trace_replay* too (revm-inspectors is_precompile_call leaves out only those without value)
  const traces = readGolden(join(dir, 'trace')).exchanges;
  test('trace recorded', () => expect(traces.length).toBeGreaterThan(10));
  for (const r of traces) {
    test(r.name, async () => expect(await dispatch(r.request, await contextFor(join(dir, 'fixture.json')))).toBe(r.response!), SLOW);
  }
});

describe('limits', () => {
  const fixture = join(GOLDEN, 'fixtures', 'cancun-devnet', 'fixture.json');
  test("a vmTrace past --max-response is go-ethereum's -32003 (cancun 0xa's is 32 MB, the default limit 25 MB)", async () => {
    expect(await call(await contextFor(fixture), 'trace_replayBlockTransactions', ['0xa', ['vmTrace']])).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32003,"message":"response too large"}}',
    );
  }, SLOW);
});
