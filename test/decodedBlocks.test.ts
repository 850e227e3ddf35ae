// A chain keeps a bounded number of decoded blocks and parsed receipts (issue 37, "Long chains":
// src/replay/decodedCache.ts): walking every block of a fixture whose blocks are RLP, replayed or
// restored from its snapshot, with room for two blocks, keeps at most two, decodes blocks again as
// they are asked for again, recovers no signature for it (each sender is its receipt's `from`), and
// answers every request with the bytes of a chain that keeps the default number.
import { beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { AccessList2930Tx, Blob4844Tx, EOACode7702Tx, FeeMarket1559Tx, LegacyTx } from '@ethereumjs/tx';
import { generatedSender, generateLoadFixture } from '../bench/generate.ts';
import { decodeSnapshot, encodeSnapshot, type Snapshot } from '../src/cache/snapshot.ts';
import { fromBlocktraceJson } from '../src/fixture/blocktraceJson.ts';
import { readFixture } from '../src/fixture/detect.ts';
import type { ChainSpec } from '../src/fixture/types.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import type { DecodedLimits } from '../src/replay/decodedCache.ts';
import { createContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { ROOT } from './faces.ts';

const SLOW = 180_000;
const hex = (n: bigint): string => `0x${n.toString(16)}`;

/** Every block's full body, receipts, Parity traces and prestate trace (a run of the block), then whole-chain reads. */
function requests(chain: FixtureChain, sender: string): string[] {
  const bodies: string[] = [];
  const body = (method: string, params: unknown[]): number => bodies.push(JSON.stringify({ jsonrpc: '2.0', id: bodies.length + 1, method, params }));
  for (let n = chain.genesis.number; n <= chain.head.number; n++) {
    body('eth_getBlockByNumber', [hex(n), true]);
    if (n === chain.genesis.number) continue;
    body('eth_getBlockReceipts', [hex(n)]);
    body('trace_block', [hex(n)]);
    body('debug_traceBlockByNumber', [hex(n), { tracer: 'prestateTracer' }]);
  }
  body('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
  body('ots_searchTransactionsBefore', [sender, 0, 1000]);
  body('ots_searchTransactionsAfter', [sender, 0, 1000]);
  return bodies;
}

/** The answers, and the most blocks and transactions the chain kept decoded after any one request. */
async function walk(chain: FixtureChain, bodies: readonly string[]): Promise<{ answers: string[]; most: { blocks: number; transactions: number; receiptLists: number } }> {
  const ctx = createContext(chain, { log: () => {}, maxResponse: 0 });
  const answers: string[] = [];
  const most = { blocks: 0, transactions: 0, receiptLists: 0 };
  for (const text of bodies) {
    answers.push((await dispatch(text, ctx))!);
    const now = chain.decodedCache.counts();
    most.blocks = Math.max(most.blocks, now.blocks);
    most.transactions = Math.max(most.transactions, now.transactions);
    most.receiptLists = Math.max(most.receiptLists, now.receiptLists);
  }
  return { answers, most };
}

/** Signatures ethereumjs recovers while `run` runs (getSenderPublicKey of every transaction type). */
async function recoveries<T>(run: () => Promise<T>): Promise<{ result: T; recovered: number }> {
  const types = [LegacyTx, AccessList2930Tx, FeeMarket1559Tx, Blob4844Tx, EOACode7702Tx] as unknown as { prototype: { getSenderPublicKey(): Uint8Array } }[];
  const own = types.map((t) => t.prototype.getSenderPublicKey);
  let recovered = 0;
  types.forEach((t, i) => {
    t.prototype.getSenderPublicKey = function (this: unknown) {
      recovered++;
      return own[i]!.call(this);
    };
  });
  try {
    return { result: await run(), recovered };
  } finally {
    types.forEach((t, i) => (t.prototype.getSenderPublicKey = own[i]!));
  }
}

const TWO_BLOCKS: DecodedLimits = { blocks: 2, transactions: 100 };

async function check(spec: () => ChainSpec, sender: string): Promise<void> {
  let made: Snapshot | undefined;
  const reference = await FixtureChain.load(spec(), undefined, { save: (s) => void (made = s) });
  const bodies = requests(reference, sender);
  const expected = (await walk(reference, bodies)).answers;
  // every request answered (a walk of errors would compare equal as well), the searches found transactions
  expect(expected.filter((a) => !a.includes('"result"'))).toEqual([]);
  expect(expected.slice(-2).map((a) => (JSON.parse(a) as { result: { txs: unknown[] } }).result.txs.length > 0)).toEqual([true, true]);
  const snapshot = decodeSnapshot(encodeSnapshot('k', made!), 'k');
  if (typeof snapshot === 'string') throw new Error(snapshot);
  const blocks = Number(reference.head.number - reference.genesis.number);
  for (const [how, load] of [
    ['replayed', () => FixtureChain.load(spec(), undefined, undefined, TWO_BLOCKS)],
    ['restored from its snapshot', () => FixtureChain.load(spec(), undefined, { snapshot }, TWO_BLOCKS)],
  ] as const) {
    const chain = await load();
    const { result, recovered } = await recoveries(() => walk(chain, bodies));
    // the same bytes, request by request
    result.answers.forEach((answer, i) => expect({ how, request: bodies[i], answer }).toEqual({ how, request: bodies[i], answer: expected[i]! }));
    // never more than two blocks (or one past the transaction bound) decoded, nor two receipt lists
    expect({ how, blocks: result.most.blocks <= 2, receiptLists: result.most.receiptLists <= 2 }).toEqual({ how, blocks: true, receiptLists: true });
    if (result.most.blocks > 1) expect(result.most.transactions).toBeLessThanOrEqual(TWO_BLOCKS.transactions);
    // blocks were decoded again, and their receipts parsed again, as the walk came back to them
    const counts = chain.decodedCache.counts();
    expect(counts.decoded).toBeGreaterThan(blocks);
    expect(counts.parsed).toBeGreaterThan(blocks);
    // a block decoded again has its senders from its receipts: no signature is recovered
    expect({ how, recovered }).toEqual({ how, recovered: 0 });
    chain.decodedCache.clear();
    expect(chain.decodedCache.counts()).toMatchObject({ blocks: 0, transactions: 0, receiptLists: 0, receipts: 0 });
  }
}

describe('a bounded number of decoded blocks, the same answers', () => {
  let generated: { genesis: Record<string, unknown>; blocks: string[] };
  beforeAll(async () => {
    // 600 transactions of 100 senders, 50 a block: past 400, the load recovers senders in a worker (senders.ts)
    generated = (await generateLoadFixture(600, 50)) as unknown as typeof generated;
  }, SLOW);

  test('a generated chain (RLP blocks without senders)', () => check(() => fromBlocktraceJson('generated.json', generated as never), generatedSender(0)), SLOW);

  test('the execution-apis chain (chain.rlp)', () => check(() => readFixture(join(ROOT, 'golden/execution-apis/tests')), '0x7435ed30a8b4aeb0877cef0c6e8cffe834eb865f'), SLOW);
});
