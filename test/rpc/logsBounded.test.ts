// eth_getLogs over a whole chain in bounded memory (issue 37): an answer past --max-response is
// go-ethereum's -32003 from the log index alone (each log's JSON size is known there), the bytes
// the dispatcher's own limit gives, with no block's receipts read; under the limit the answer is
// unchanged. An Otterscan search of a whole history (page size 10^9) stops at the limit the same way.
// The log table a fixture chain makes at load is the one its receipts give, kept in the snapshot: a
// start from it answers with the same bytes and reads no receipts for a -32003.
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { decodeSnapshot, encodeSnapshot, type Snapshot } from '../../src/cache/snapshot.ts';
import { LogTableBuilder } from '../../src/chainIndex/logTable.ts';
import { readFixture } from '../../src/fixture/detect.ts';
import { FixtureChain } from '../../src/replay/chain.ts';
import type { ChainBlock, ChainView } from '../../src/replay/chainView.ts';
import { formatLog } from '../../src/rpc/handlers/ethJson.ts';
import { LogIndex, logJsonBytes } from '../../src/rpc/handlers/logIndex.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { contextFor } from '../helpers/chainContext.ts';

const FIXTURE = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
const WHOLE = '{"jsonrpc":"2.0","id":7,"method":"eth_getLogs","params":[{"fromBlock":"0x0","toBlock":"latest"}]}';

test('under the limit the answer is what it is without one; past it, -32003 whether the logs or the dispatcher stop it', async () => {
  const { chain } = await contextFor(FIXTURE);
  const unlimited = (await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: 0 })))!;
  expect((JSON.parse(unlimited) as { result: unknown[] }).result.length).toBeGreaterThan(200);
  expect(await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: unlimited.length }))).toBe(unlimited);
  const tooLarge = '{"jsonrpc":"2.0","id":7,"error":{"code":-32003,"message":"response too large"}}';
  // far past the limit (the logs stop it) and just past it (the dispatcher does, from the whole result)
  expect(await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: 2_000 }))).toBe(tooLarge);
  const resultBytes = unlimited.length - '{"jsonrpc":"2.0","id":7,"result":}'.length;
  expect(await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: resultBytes - 1 }))).toBe(tooLarge);
  expect(await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: resultBytes }))).toBe(unlimited);
});

test('an answer past the limit reads no receipts: the index knows each log\'s size', async () => {
  const { chain } = await contextFor(FIXTURE);
  const read: bigint[] = [];
  // the chain as the index sees it, counting the blocks whose receipts are read
  const counted: ChainView = Object.assign(Object.create(chain) as ChainView, {
    receiptsOnce: (block: ChainBlock) => {
      read.push(block.number);
      return chain.receiptsOnce!(block);
    },
  });
  const index = LogIndex.of(counted);
  read.length = 0;
  expect(index.find(0n, chain.head.number, { addresses: [], topics: [] }).length).toBeGreaterThan(200);
  expect(new Set(read).size).toBeGreaterThan(3);
  read.length = 0;
  expect(() => index.find(0n, chain.head.number, { addresses: [], topics: [] }, 2_000)).toThrow('response too large');
  expect(read).toEqual([]);
});

for (const name of ['cancun-devnet', 'prague-devnet']) {
  test(`${name}: the size the index gives every log is the length of its JSON`, async () => {
    const { chain } = await contextFor(join(import.meta.dir, `../../golden/fixtures/${name}/fixture.json`));
    let logs = 0;
    for (let n = chain.genesis.number; n <= chain.head.number; n++) {
      const block = chain.blockByNumber(n)!;
      chain.receipts(block).forEach((receipt, t) =>
        receipt.logs.forEach((log, j) => {
          const at = { number: block.number, timestamp: block.block.header.timestamp };
          expect(logJsonBytes(at, t, receipt.firstLogIndex + j, log.topics.length, log.data.length)).toBe(JSON.stringify(formatLog(block, t, receipt, j)).length);
          logs++;
        }),
      );
    }
    expect(logs).toBeGreaterThan(50);
  });
}

test('ots_searchTransactionsBefore of a whole history: the answer within the limit unchanged, -32003 past it, as the dispatcher gives it', async () => {
  const { chain } = await contextFor(FIXTURE);
  const body = '{"jsonrpc":"2.0","id":3,"method":"ots_searchTransactionsBefore","params":["0x70997970c51812dc3a010c7d01b50e0d17dc79c8",0,1000000000]}';
  const unlimited = (await dispatch(body, createContext(chain, { log: () => {}, maxResponse: 0 })))!;
  expect((JSON.parse(unlimited) as { result: { txs: unknown[] } }).result.txs.length).toBeGreaterThan(20);
  const resultBytes = unlimited.length - '{"jsonrpc":"2.0","id":3,"result":}'.length;
  expect(await dispatch(body, createContext(chain, { log: () => {}, maxResponse: resultBytes }))).toBe(unlimited);
  expect(await dispatch(body, createContext(chain, { log: () => {}, maxResponse: resultBytes - 1 }))).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32003,"message":"response too large"}}');
  expect(await dispatch(body, createContext(chain, { log: () => {}, maxResponse: 5_000 }))).toBe('{"jsonrpc":"2.0","id":3,"error":{"code":-32003,"message":"response too large"}}');
});

/** Requests of every kind of filter, with values the chain's own logs have (and one no log has). */
async function filtersOf(chain: ChainView): Promise<string[]> {
  const all = JSON.parse((await dispatch(WHOLE, createContext(chain, { log: () => {}, maxResponse: 0 })))!) as { result: { address: string; topics: string[]; blockNumber: string; blockHash: string }[] };
  const logs = all.result;
  const first = logs[0]!;
  const other = logs.find((l) => l.topics[0] !== first.topics[0] && l.topics.length > 0)!;
  const emitters = [...new Set(logs.map((l) => l.address))];
  const middle = logs[logs.length >> 1]!;
  const none = `0x${'ab'.repeat(20)}`;
  const filters: unknown[] = [
    {}, { fromBlock: '0x0', toBlock: 'latest' }, { fromBlock: middle.blockNumber }, { fromBlock: first.blockNumber, toBlock: middle.blockNumber },
    { blockHash: middle.blockHash }, { fromBlock: 'earliest', address: first.address }, { fromBlock: 'earliest', address: emitters },
    { fromBlock: 'earliest', address: [none, emitters.at(-1)] }, { fromBlock: 'earliest', address: none },
    { fromBlock: 'earliest', topics: [first.topics[0]] }, { fromBlock: 'earliest', topics: [[first.topics[0], other.topics[0]]] },
    { fromBlock: 'earliest', topics: [null, first.topics[1] ?? null] }, { fromBlock: 'earliest', topics: [null, null, null] },
    { fromBlock: 'earliest', topics: [[`0x${'cd'.repeat(32)}`]] }, { fromBlock: 'earliest', topics: [[]] },
    { fromBlock: 'earliest', address: other.address, topics: [other.topics[0], null] },
  ];
  expect(emitters.length).toBeGreaterThan(1);
  return filters.map((f, i) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'eth_getLogs', params: [f] }));
}

for (const name of ['cancun-devnet', 'prague-devnet']) {
  test(`${name}: the log table made at load is the one the receipts give, and answers every filter as it`, async () => {
    const { chain } = await contextFor(join(import.meta.dir, `../../golden/fixtures/${name}/fixture.json`));
    const fromReceipts = new LogTableBuilder(chain.genesis.number);
    for (let n = chain.genesis.number; n <= chain.head.number; n++) fromReceipts.addBlock(chain.receipts(chain.blockByNumber(n)!).map((r) => r.logs));
    expect(chain.logTable!.data).toEqual(fromReceipts.build().data);
    // the same chain without the table: the RPC layer makes it from the receipts, as for an upstream chain
    const bare: ChainView = Object.assign(Object.create(chain) as ChainView, { logTable: undefined });
    let nonEmpty = 0;
    for (const body of await filtersOf(chain)) {
      const ours = (await dispatch(body, createContext(chain, { log: () => {}, maxResponse: 0 })))!;
      expect({ body, answer: (await dispatch(body, createContext(bare, { log: () => {}, maxResponse: 0 })))! }).toEqual({ body, answer: ours });
      if (ours.includes('"address"')) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(8);
  });
}

test('a start from the snapshot answers with the replay\'s bytes, and a -32003 reads no receipts', async () => {
  let made: Snapshot | undefined;
  const replayed = await FixtureChain.load(readFixture(FIXTURE), undefined, { save: (s) => void (made = s) });
  const snapshot = decodeSnapshot(encodeSnapshot('k', made!), 'k');
  if (typeof snapshot === 'string') throw new Error(snapshot);
  const restored = await FixtureChain.load(readFixture(FIXTURE), undefined, { snapshot });
  // every receipt list read goes through the chain's decoded cache, which counts what it parsed
  const reads = (): number => restored.decodedCache.counts().parsed;
  expect(restored.logTable).toBe(snapshot.logs);
  expect(await dispatch(WHOLE, createContext(restored, { log: () => {}, maxResponse: 2_000 }))).toBe('{"jsonrpc":"2.0","id":7,"error":{"code":-32003,"message":"response too large"}}');
  expect(reads()).toBe(0);
  for (const body of await filtersOf(replayed)) {
    const answer = (await dispatch(body, createContext(replayed, { log: () => {}, maxResponse: 0 })))!;
    expect({ body, answer: (await dispatch(body, createContext(restored, { log: () => {}, maxResponse: 0 })))! }).toEqual({ body, answer });
  }
  expect(reads()).toBeGreaterThan(3);
});
