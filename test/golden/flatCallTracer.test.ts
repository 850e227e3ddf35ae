// go-ethereum's flatCallTracer cases (golden/geth-tracetest/call_tracer_flat/), answered by our
// flatCallTracer and compared with each case's recorded `result` the way go-ethereum's
// eth/tracers/internal/tracetest/flat_calltrace_test.go compares: both sides decoded into its typed
// flatCallTrace (blockHash, blockNumber, transactionHash, transactionPosition and time ignored: the
// test runs its tracer with an empty Context; a missing field equals its zero value, a null or
// missing result the empty one; hex and addresses compared as values), bounced through JSON, then
// reflect.DeepEqual (so traceAddress [] and null differ). Our own bytes are also checked to keep
// call_flat.go's key order.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const DIR = join(import.meta.dir, '../../golden/geth-tracetest/call_tracer_flat');
type Json = Record<string, unknown>;

/** encoding/json matches a key exactly, else case-insensitively. */
function field(obj: unknown, name: string): unknown {
  if (typeof obj !== 'object' || obj === null) return undefined;
  const o = obj as Json;
  if (name in o) return o[name];
  const key = Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : o[key];
}
const ZERO_ADDRESS = '0x' + '0'.repeat(40);
const address = (v: unknown): string => (v === undefined || v === null ? ZERO_ADDRESS : (v as string).toLowerCase());
const bytes = (v: unknown): string => (v === undefined || v === null ? '0x' : (v as string).toLowerCase());
const big = (v: unknown): bigint => (v === undefined || v === null ? 0n : BigInt(v as string));
const str = (v: unknown): string => (v === undefined || v === null ? '' : (v as string));

/** flat_calltrace_test.go's flatCallTrace after the jsonEqualFlat bounce. */
function typed(trace: unknown): unknown {
  const action = field(trace, 'action');
  const result = field(trace, 'result');
  const traceAddress = field(trace, 'traceAddress');
  return {
    action: {
      author: address(field(action, 'author')),
      rewardType: str(field(action, 'rewardType')),
      address: address(field(action, 'address')),
      balance: big(field(action, 'balance')),
      callType: str(field(action, 'callType')),
      creationMethod: str(field(action, 'creationMethod')),
      from: address(field(action, 'from')),
      gas: big(field(action, 'gas')),
      init: bytes(field(action, 'init')),
      input: bytes(field(action, 'input')),
      refundAddress: address(field(action, 'refundAddress')),
      to: address(field(action, 'to')),
      value: big(field(action, 'value')),
    },
    error: str(field(trace, 'error')),
    result: {
      address: address(field(result, 'address')),
      code: bytes(field(result, 'code')),
      gasUsed: big(field(result, 'gasUsed')),
      output: bytes(field(result, 'output')),
    },
    subtraces: (field(trace, 'subtraces') as number | undefined) ?? 0,
    traceAddress: traceAddress === undefined || traceAddress === null ? null : traceAddress,
    type: str(field(trace, 'type')),
  };
}

// call_flat.go flatCallFrame, gen_flatcallaction_json.go, gen_flatcallresult_json.go
const FRAME_KEYS = ['action', 'blockHash', 'blockNumber', 'error', 'result', 'subtraces', 'traceAddress', 'transactionHash', 'transactionPosition', 'type'];
const ACTION_KEYS = ['author', 'rewardType', 'address', 'balance', 'callType', 'creationMethod', 'from', 'gas', 'init', 'input', 'refundAddress', 'to', 'value'];
const RESULT_KEYS = ['address', 'code', 'gasUsed', 'output'];
const inOrder = (keys: string[], order: string[]): boolean => keys.every((k, i) => order.includes(k) && (i === 0 || order.indexOf(keys[i - 1]!) < order.indexOf(k)));

describe("go-ethereum's flatCallTracer cases, compared as flat_calltrace_test.go does", () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
    test(file, async () => {
      const c = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { tracerConfig?: Json; result: unknown[] };
      const chain = await loadChain(join(DIR, file));
      const ctx = createContext(chain, { log: () => {}, allTracers: true });
      const config = JSON.stringify({ tracer: 'flatCallTracer', ...(c.tracerConfig === undefined ? {} : { tracerConfig: c.tracerConfig }) });
      const text = (await dispatch(`{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x${chain.head.number.toString(16)}",${config}]}`, ctx))!;
      const answer = JSON.parse(text) as { result: { result: Json[] }[] };
      const got = answer.result[0]!.result;
      expect(got.map(typed)).toEqual(c.result.map(typed));
      for (const trace of got) {
        expect(inOrder(Object.keys(trace), FRAME_KEYS)).toBe(true);
        expect(inOrder(Object.keys(trace['action'] as Json), ACTION_KEYS)).toBe(true);
        if (trace['result'] !== undefined) expect(inOrder(Object.keys(trace['result'] as Json), RESULT_KEYS)).toBe(true);
        expect(trace['blockNumber']).toBe(Number(chain.head.number));
      }
    });
  }
});
