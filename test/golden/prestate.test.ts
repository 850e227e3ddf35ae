// Every go-ethereum prestateTracer test case (golden/geth-tracetest/prestate_tracer{,_with_diff_mode})
// through the project's own path: fixture → loadChain (replay with the recorder) → dispatch of
// debug_traceBlockByNumber → prestateTracer renderer → Go-style JSON. The expected bytes are the
// recorded `result` in go-ethereum's canonical form: its prestate_test.go re-marshals the golden as
// generic JSON, which sorts every object's keys, and compares strings.
import { describe, expect, test } from 'bun:test';
import { sortedGoJson } from '../helpers/goJsonSorted.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transaction } from 'micro-eth-signer';
import { loadChain } from '../../src/replay/loadChain.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { createContext } from '../../src/rpc/context.ts';

const ROOT = join(import.meta.dir, '../../golden/geth-tracetest');
const FOLDERS = ['prestate_tracer', 'prestate_tracer_with_diff_mode'];

interface TraceCase {
  context: { number: string | number };
  input: string;
  tracerConfig?: unknown;
  result: unknown;
}

/** keccak256 of the raw transaction, by a decoder other than ours (non-strict: pre-EIP-155 and blob txs). */
function txHash(input: string): string {
  return Transaction.fromHex(input.startsWith('0x') ? input : `0x${input}`, false).hash;
}

for (const folder of FOLDERS) {
  describe(`geth-tracetest ${folder}`, () => {
    const files = readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.json')).sort();
    test('the folder holds its cases', () => {
      expect(files.length).toBe(folder === 'prestate_tracer' ? 11 : 13);
    });
    for (const file of files) {
      test(file, async () => {
        const path = join(ROOT, folder, file);
        const c = JSON.parse(readFileSync(path, 'utf8')) as TraceCase;
        const ctx = createContext(await loadChain(path), { log: () => {} });
        const options = c.tracerConfig === undefined ? { tracer: 'prestateTracer' } : { tracer: 'prestateTracer', tracerConfig: c.tracerConfig };
        const request = { jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x' + BigInt(c.context.number).toString(16), options] };
        const response = await dispatch(JSON.stringify(request), ctx);
        expect(response).toBe(`{"jsonrpc":"2.0","id":1,"result":[{"txHash":"${txHash(c.input)}","result":${sortedGoJson(c.result)}}]}`);
      });
    }
  });
}
