// Every go-ethereum callTracer test case (golden/geth-tracetest/call_tracer{,_withLog}) through the
// project's own path: fixture → loadChain → dispatch of debug_traceBlockByNumber → callTracer
// renderer → Go-style JSON. go-ethereum's calltrace_test.go decodes the golden into its typed
// callFrame and re-marshals it, so the expected bytes are the golden in that canonical form: keys in
// gen_callframe_json.go order, empty fields omitted, quantities as minimal hex, a missing log index 0.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Transaction } from 'micro-eth-signer';
import { goJson } from '../../src/encoding/json.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const ROOT = join(import.meta.dir, '../../golden/geth-tracetest');
const FOLDERS: [string, number][] = [['call_tracer', 15], ['call_tracer_withLog', 10]];

type Json = Record<string, unknown>;

const quantity = (v: unknown): string => '0x' + BigInt(v as string).toString(16);
const bytes = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '0x');

/** The golden frame as go-ethereum re-marshals its typed callFrame. */
function canonicalFrame(f: Json): Json {
  const out: Json = { from: bytes(f.from), gas: quantity(f.gas ?? 0), gasUsed: quantity(f.gasUsed ?? 0) };
  if (f.to) out.to = bytes(f.to);
  out.input = bytes(f.input);
  if (f.output && f.output !== '0x') out.output = bytes(f.output);
  if (f.error) out.error = f.error;
  if (f.revertReason) out.revertReason = f.revertReason;
  if (Array.isArray(f.calls) && f.calls.length > 0) out.calls = f.calls.map((c) => canonicalFrame(c as Json));
  if (Array.isArray(f.logs) && f.logs.length > 0) {
    out.logs = (f.logs as Json[]).map((l) => ({
      address: bytes(l.address),
      topics: ((l.topics as string[] | null) ?? []).map(bytes),
      data: bytes(l.data),
      index: quantity(l.index ?? 0),
      position: quantity(l.position ?? 0),
    }));
  }
  if (f.value !== undefined && f.value !== null) out.value = quantity(f.value);
  out.type = f.type;
  return out;
}

function txHash(input: string): string {
  return Transaction.fromHex(input.startsWith('0x') ? input : `0x${input}`, false).hash;
}

for (const [folder, count] of FOLDERS) {
  describe(`geth-tracetest ${folder}`, () => {
    const files = readdirSync(join(ROOT, folder)).filter((f) => f.endsWith('.json')).sort();
    test('the folder holds its cases', () => expect(files.length).toBe(count));
    for (const file of files) {
      test(file, async () => {
        const path = join(ROOT, folder, file);
        const c = JSON.parse(readFileSync(path, 'utf8')) as { context: { number: string }; input: string; tracerConfig?: unknown; result: Json };
        const ctx = createContext(await loadChain(path), { log: () => {} });
        const options = c.tracerConfig === undefined ? { tracer: 'callTracer' } : { tracer: 'callTracer', tracerConfig: c.tracerConfig };
        const request = { jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x' + BigInt(c.context.number).toString(16), options] };
        const response = await dispatch(JSON.stringify(request), ctx);
        expect(response).toBe(`{"jsonrpc":"2.0","id":1,"result":[{"txHash":"${txHash(c.input)}","result":${goJson(canonicalFrame(c.result))}}]}`);
      });
    }
  });
}
