// go-ethereum's state debug methods (eth/api_debug.go, core/state/dump.go, eth/tracers/api.go
// IntermediateRoots / TraceBlock / TraceBadBlock) on cancun-devnet block 0xa, held to the answers
// of the methods whose bytes are go-ethereum's (eth_getStorageAt, eth_getBalance,
// eth_getTransactionCount, eth_getBlockByNumber, prestateTracer, debug_traceBlockByNumber). No
// client recording of these methods exists in execution-apis or in the recorded Erigon answers.
import { beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { optInMethodNames } from '../../src/rpc/methods.ts';

const CANCUN = join(import.meta.dir, '../../golden/fixtures/cancun-devnet/fixture.json');
const TOKEN = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
type Json = Record<string, any>;
let chain: ChainView;
let block: Json;
let ctxAll: ReturnType<typeof createContext>;
// cancun-devnet was recorded from anvil, whose header state roots are not go-ethereum's (docs/fixtures.md):
// the fixture records each block's canonical root beside it, which the load checks the replay against
const canonicalRoot = (JSON.parse(readFileSync(CANCUN, 'utf8')) as Json)['blocks'][9]['stateRootCheck']['recomputedCanonical'] as string;
beforeAll(async () => {
  chain = await loadChain(CANCUN);
  ctxAll = createContext(chain, { log: () => {}, allTracers: true });
  block = (await call('eth_getBlockByNumber', ['0xa', false])) as Json;
}, 60_000);

const raw = async (method: string, params: unknown[], all = true): Promise<string> =>
  (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), all ? ctxAll : createContext(chain, { log: () => {} })))!;
async function call(method: string, params: unknown[]): Promise<unknown> {
  const answer = JSON.parse(await raw(method, params)) as { result?: unknown; error?: unknown };
  if (answer.error !== undefined) throw new Error(JSON.stringify(answer.error));
  return answer.result;
}
const error = (code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message } });

test('debug_storageRangeAt: the storage before the block, each value as eth_getStorageAt reads it at the parent, keys by hash', async () => {
  const all = (await call('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x', 100000])) as Json;
  const entries = Object.entries(all['storage'] as Record<string, Json>);
  expect(entries.length).toBeGreaterThan(3);
  expect(all['nextKey']).toBeNull();
  expect(entries.map(([hash]) => hash)).toEqual(entries.map(([hash]) => hash).sort());
  for (const [, entry] of entries) {
    expect(entry['key']).not.toBeNull();
    expect(entry['value']).toBe(await call('eth_getStorageAt', [TOKEN, entry['key'], '0x9']));
  }
  // paging: two at a time from nextKey gives the same entries
  const paged: [string, Json][] = [];
  let start = '0x';
  for (;;) {
    const page = (await call('debug_storageRangeAt', [block['hash'], 0, TOKEN, start, 2])) as Json;
    paged.push(...Object.entries(page['storage'] as Record<string, Json>));
    if (page['nextKey'] === null) break;
    start = page['nextKey'];
  }
  expect(paged).toEqual(entries);
  // maxResult 0: nothing, and the first key to go on from
  expect(await call('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x', 0])).toEqual({ storage: {}, nextKey: entries[0]![0] });
  // an account without storage
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, '0x70997970c51812dc3a010c7d01b50e0d17dc79c8', '0x', 10])).toBe('{"jsonrpc":"2.0","id":1,"result":{"storage":null,"nextKey":null}}');
});

test("debug_storageRangeAt: go-ethereum's errors", async () => {
  const unknown = '0x' + '11'.repeat(32);
  expect(await raw('debug_storageRangeAt', [unknown, 0, TOKEN, '0x', 1])).toBe(error(-32000, `block ${unknown} not found`));
  const count = (block['transactions'] as string[]).length;
  expect(await raw('debug_storageRangeAt', [block['hash'], count, TOKEN, '0x', 1])).toBe(error(-32000, `transaction index ${count} out of range for block ${block['hash']}`));
  expect(await raw('debug_storageRangeAt', [block['hash'], -1, TOKEN, '0x', 1])).toBe(error(-32000, `transaction index -1 out of range for block ${block['hash']}`));
  expect(await raw('debug_storageRangeAt', ['0x0', 0, TOKEN, '0x', 1])).toBe(error(-32000, 'no transaction in genesis'));
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, '0x1234', '0x', 1])).toBe(error(-32602, 'invalid argument 2: hex string has length 4, want 40 for common.Address'));
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x', '0x10'])).toBe(error(-32602, 'invalid argument 4: json: cannot unmarshal string into Go value of type int'));
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x', 1e30])).toBe(error(-32602, 'invalid argument 4: json: cannot unmarshal number 1e+30 into Go value of type int'));
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x1', 1])).toBe(error(-32602, 'invalid argument 3: json: cannot unmarshal hex string of odd length into Go value of type hexutil.Bytes'));
  expect(await raw('debug_storageRangeAt', [block['hash'], 0, TOKEN, '0x'])).toBe(error(-32602, 'missing value for required argument 4'));
});

test("debug_accountRange: the block's (canonical) state root, every account's balance and nonce as eth_getBalance and eth_getTransactionCount read them", async () => {
  const dump = (await call('debug_accountRange', ['0xa', '0x', 256, true, true, false])) as Json;
  expect('0x' + dump['root']).toBe(canonicalRoot);
  expect(dump['next']).toBeUndefined();
  const accounts = Object.entries(dump['accounts'] as Record<string, Json>);
  expect(accounts.length).toBeGreaterThan(10);
  expect(accounts.map(([k]) => k)).toEqual(accounts.map(([k]) => k).sort());
  for (const [name, account] of accounts) {
    expect(name.toLowerCase()).toBe(account['address']);
    expect('0x' + BigInt(account['balance']).toString(16)).toBe((await call('eth_getBalance', [account['address'], '0xa'])) as string);
    expect('0x' + account['nonce'].toString(16)).toBe((await call('eth_getTransactionCount', [account['address'], '0xa'])) as string);
    expect(Object.keys(account)).toEqual(['balance', 'nonce', 'root', 'codeHash', 'address', 'key']);
  }
  // pages of 5 from `next` give the same accounts; code and storage when asked
  const paged: string[] = [];
  let start = '0x';
  for (;;) {
    const page = (await call('debug_accountRange', ['0xa', start, 5, false, false, false])) as Json;
    paged.push(...Object.keys(page['accounts']));
    if (page['next'] === undefined) break;
    start = page['next'];
  }
  expect(paged.sort()).toEqual(accounts.map(([k]) => k));
  const token = ((await call('debug_accountRange', [{ blockHash: block['hash'] }, '0x', 0, false, false, false])) as Json)['accounts'];
  const tokenAccount = Object.values(token as Record<string, Json>).find((a) => a['address'] === TOKEN);
  expect(tokenAccount?.['code']).toBe(await call('eth_getCode', [TOKEN, '0xa']));
  for (const [key, value] of Object.entries(tokenAccount?.['storage'] as Record<string, string>)) {
    expect(BigInt('0x' + value)).toBe(BigInt((await call('eth_getStorageAt', [TOKEN, key, '0xa'])) as string));
  }
  expect(await raw('debug_accountRange', ['0x1000', '0x', 1, true, true, false])).toBe(error(-32000, 'block #4096 not found'));
  expect(await raw('debug_accountRange', ['earliest', '0x', 1, true, true, false])).toBe(error(-32000, 'block #-5 not found'));
});

test('debug_dumpBlock: at most 256 accounts with known addresses, code and storage', async () => {
  const dump = (await call('debug_dumpBlock', ['0xa'])) as Json;
  const range = (await call('debug_accountRange', ['0xa', '0x', 256, false, false, false])) as Json;
  expect(dump).toEqual(range);
  expect(await raw('debug_dumpBlock', ['0x1000'])).toBe(error(-32000, 'block #4096 not found'));
});

test("debug_intermediateRoots: one root per transaction, the last the block's (canonical) state root: no withdrawals after them", async () => {
  const roots = (await call('debug_intermediateRoots', [block['hash']])) as string[];
  expect(roots.length).toBe((block['transactions'] as string[]).length);
  expect((block['withdrawals'] as unknown[]).length).toBe(0);
  expect(roots.at(-1)).toBe(canonicalRoot);
  expect(new Set(roots).size).toBe(roots.length);
  expect(await raw('debug_intermediateRoots', ['0x' + '11'.repeat(32)])).toBe(error(-32000, `block 0x${'11'.repeat(32)} not found`));
  const genesis = (await call('eth_getBlockByNumber', ['0x0', false])) as Json;
  expect(await raw('debug_intermediateRoots', [genesis['hash']])).toBe(error(-32000, 'genesis is not traceable'));
});

test("debug_getModifiedAccountsByNumber / ByHash: the accounts prestateTracer's diff mode shows changed (the chain has no EIP-4788 contract for the block's system call to write)", async () => {
  const byNumber = (await call('debug_getModifiedAccountsByNumber', [10])) as string[];
  expect(await call('debug_getModifiedAccountsByHash', [block['hash']])).toEqual(byNumber);
  const parent = (await call('eth_getBlockByNumber', ['0x9', false])) as Json;
  expect(await call('debug_getModifiedAccountsByNumber', [9, 10])).toEqual(byNumber);
  expect(await call('debug_getModifiedAccountsByHash', [parent['hash'], block['hash']])).toEqual(byNumber);
  const diffs = (await call('debug_traceBlockByNumber', ['0xa', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }])) as { result: { post: Json } }[];
  const touched = new Set(diffs.flatMap((tx) => Object.keys(tx.result.post)));
  expect(await call('eth_getCode', ['0x000f3df6d732807ef1319fb7b8bb8522d0beac02', '0xa'])).toBe('0x');
  expect(byNumber.length).toBe(touched.size);
  expect(new Set(byNumber)).toEqual(touched);
  expect(await raw('debug_getModifiedAccountsByNumber', [10, 9])).toBe(error(-32000, 'start block height (10) must be less than end block height (9)'));
  expect(await raw('debug_getModifiedAccountsByNumber', [0])).toBe(error(-32000, 'block 0 has no parent'));
  expect(await raw('debug_getModifiedAccountsByNumber', [4096])).toBe(error(-32000, 'start block 1000 not found'));
  expect(await raw('debug_getModifiedAccountsByNumber', [1, 4096])).toBe(error(-32000, 'end block 4096 not found'));
  expect(await raw('debug_getModifiedAccountsByNumber', ['0xa'])).toBe(error(-32602, 'invalid argument 0: json: cannot unmarshal string into Go value of type uint64'));
  expect(await raw('debug_getModifiedAccountsByHash', ['0x' + '11'.repeat(32)])).toBe(error(-32000, `start block ${'11'.repeat(32)} not found`));
});

test('debug_traceBlock: the RLP of block 0xa traced with every tracer of the registry, as debug_traceBlockByNumber traces it', async () => {
  const rlp = (await call('debug_getRawBlock', ['0xa'])) as string;
  const configs: Json[] = [
    { tracer: 'callTracer', tracerConfig: { withLog: true } },
    { tracer: 'prestateTracer', tracerConfig: { diffMode: true } },
    { tracer: 'prestateTracer' },
    { tracer: '4byteTracer' },
    { tracer: 'noopTracer' },
    { tracer: 'flatCallTracer' },
    { tracer: 'muxTracer', tracerConfig: { callTracer: {}, prestateTracer: {} } },
  ];
  for (const config of configs) {
    const byNumber = await raw('debug_traceBlockByNumber', ['0xa', config]);
    expect(byNumber).toContain('"result":[');
    expect(await raw('debug_traceBlock', [rlp, config])).toBe(byNumber);
  }
  expect(await raw('debug_traceBlock', ['0x', { tracer: 'callTracer' }])).toBe(error(-32000, 'could not decode block: EOF'));
  expect(await raw('debug_traceBlock', ['0x01', { tracer: 'callTracer' }])).toBe(error(-32000, 'could not decode block: rlp: expected input list for types.extblock'));
  expect(await raw('debug_traceBlock', [rlp, { tracer: 'nope' }])).toBe(await raw('debug_traceBlockByNumber', ['0xa', { tracer: 'nope' }]));
});

test('debug_getBadBlocks is [] and debug_traceBadBlock finds none', async () => {
  expect(await raw('debug_getBadBlocks', [])).toBe('{"jsonrpc":"2.0","id":1,"result":[]}');
  expect(await raw('debug_traceBadBlock', [block['hash'], { tracer: 'callTracer' }])).toBe(error(-32000, `bad block ${block['hash']} not found`));
});

test('without --all-tracers every one of these methods is -32601 as before', async () => {
  expect(optInMethodNames().length).toBe(9);
  for (const method of optInMethodNames()) {
    expect(await raw(method, [], false)).toBe(error(-32601, `the method ${method} does not exist/is not available`));
  }
});
