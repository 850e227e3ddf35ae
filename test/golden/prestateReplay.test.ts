// The prestate is the state a transaction needs (issue 5, "Done when"): for every go-ethereum
// prestate test transaction, our prestateTracer output becomes the whole genesis alloc of a new
// case; replaying the transaction there must give the same receipt, the same call tree, and the
// same prestate and state diff again. The prestate is taken with includeEmpty: before EIP-158 an
// existing empty account is not a missing one (CALL charges new-account gas for the latter), and
// go-ethereum's default output drops it (inner_create.json calls such an account, precompile 0x04).
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import type { ChainView } from '../../src/replay/chainView.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const ROOT = join(import.meta.dir, '../../golden/geth-tracetest');
const FOLDERS = ['prestate_tracer', 'prestate_tracer_with_diff_mode'];
const work = mkdtempSync(join(tmpdir(), 'blocktrace-prestate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface TraceCase {
  genesis: Record<string, unknown>;
  context: { number: string | number };
  input: string;
}

interface Account {
  balance: string;
  code?: string;
  nonce?: number;
  storage?: Record<string, string>;
}

/** The whole answer for the case's block, as a JSON value. */
async function trace(chain: ChainView, number: bigint, tracer: string, tracerConfig?: unknown): Promise<unknown> {
  const options = tracerConfig === undefined ? { tracer } : { tracer, tracerConfig };
  const request = { jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x' + number.toString(16), options] };
  const response = JSON.parse((await dispatch(JSON.stringify(request), createContext(chain, { log: () => {} })))!) as { result?: { result: unknown }[]; error?: unknown };
  expect(response.error).toBeUndefined();
  return response.result![0]!.result;
}

async function facts(chain: ChainView, number: bigint) {
  const block = chain.blockByNumber(number)!;
  return {
    receipts: chain.receipts(block),
    calls: await trace(chain, number, 'callTracer', { withLog: true }),
    prestate: await trace(chain, number, 'prestateTracer', { includeEmpty: true }),
    diff: await trace(chain, number, 'prestateTracer', { diffMode: true }),
  };
}

for (const folder of FOLDERS) {
  describe(`replay from our own prestate: ${folder}`, () => {
    for (const file of readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.json')).sort()) {
      test(file, async () => {
        const path = join(ROOT, folder, file);
        const c = JSON.parse(readFileSync(path, 'utf8')) as TraceCase;
        const number = BigInt(c.context.number);
        const original = await facts(await loadChain(path), number);
        const alloc: Record<string, Record<string, unknown>> = {};
        for (const [address, account] of Object.entries(original.prestate as Record<string, Account>)) {
          alloc[address] = {
            balance: account.balance,
            ...(account.code === undefined ? {} : { code: account.code }),
            ...(account.nonce === undefined ? {} : { nonce: '0x' + account.nonce.toString(16) }),
            ...(account.storage === undefined ? {} : { storage: account.storage }),
          };
        }
        // geth's prestate looks up a delegation target only when something calls the delegated account
        // while it already carries the designator; an authorization set in this very tx (setcode_tx)
        // delegates to code geth never looks up. Those targets are taken from the case's genesis.
        const post = (original.diff as { post: Record<string, Account> }).post;
        for (const account of Object.values(post)) {
          const target = account.code?.startsWith('0xef0100') ? '0x' + account.code.slice(8) : undefined;
          const source = target === undefined ? undefined : (c.genesis.alloc as Record<string, Record<string, unknown>>)[target];
          if (target !== undefined && source !== undefined && alloc[target] === undefined) alloc[target] = source;
        }
        const { stateRoot: _root, ...genesis } = c.genesis;
        const rebuilt = join(work, `${folder}-${file}`);
        writeFileSync(rebuilt, JSON.stringify({ ...c, genesis: { ...genesis, alloc } }));
        const again = await facts(await loadChain(rebuilt), number);
        expect(again).toEqual(original);
      });
    }
  });
}
