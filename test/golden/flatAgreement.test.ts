// go-ethereum's flatCallTracer cases (golden/geth-tracetest/call_tracer_flat/) checked against our
// callTracer: each flat trace is geth's call frame flattened depth-first (eth/tracers/native/
// call_flat.go), so the frames, kinds, addresses, gas, gasUsed, values and errors must agree. The
// comparison is as lenient as go-ethereum's own flat_calltrace_test.go (the flat goldens carry
// zero-valued noise fields and Parity's error words).
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const DIR = join(import.meta.dir, '../../golden/geth-tracetest/call_tracer_flat');
const PRECOMPILE = /^0x0{38}(0[1-9a-f]|1[01])$/;

interface Frame { type: string; from: string; to?: string; gas: string; gasUsed: string; value?: string; error?: string; calls?: Frame[] }
interface FlatTrace { type: string; action: Record<string, string>; result?: Record<string, string> | null; error?: string }

// call_flat.go convertParityErrors: exact texts, then prefixes
const PARITY: Record<string, string> = {
  'out of gas': 'Out of gas', 'contract creation code storage out of gas': 'Out of gas', 'gas uint64 overflow': 'Out of gas',
  'max code size exceeded': 'Out of gas', 'invalid jump destination': 'Bad jump destination', 'execution reverted': 'Reverted',
  'return data out of bounds': 'Out of bounds', 'stack limit reached 1024 (1023)': 'Out of stack', 'precompiled failed': 'Built-in failed',
  'invalid input length': 'Built-in failed',
};
function parity(error: string): string {
  if (PARITY[error] !== undefined) return PARITY[error]!;
  if (error.startsWith('out of gas:')) return 'Out of gas';
  if (error.startsWith('invalid opcode:')) return 'Bad instruction';
  if (error.startsWith('stack underflow')) return 'Stack underflow';
  return error;
}

function flatten(frame: Frame, includePrecompiles: boolean, out: Frame[] = [], top = true): Frame[] {
  if (!top && !includePrecompiles && (frame.type === 'CALL' || frame.type === 'STATICCALL') && PRECOMPILE.test(frame.to ?? '')) return out;
  out.push(frame);
  for (const child of frame.calls ?? []) flatten(child, includePrecompiles, out, false);
  return out;
}

const num = (hex: string | undefined): bigint => (hex === undefined || hex === '' ? 0n : BigInt(hex));

describe('go-ethereum flatCallTracer cases agree with our callTracer', () => {
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
    test(file, async () => {
      const c = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { tracerConfig?: Record<string, boolean>; result: FlatTrace[] };
      const chain = await loadChain(join(DIR, file));
      const ctx = createContext(chain, { log: () => {} });
      const answer = JSON.parse((await dispatch(`{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x${chain.head.number.toString(16)}",{"tracer":"callTracer"}]}`, ctx))!);
      const frames = flatten(answer.result[0].result as Frame, c.tracerConfig?.['includePrecompiles'] === true);
      const convert = c.tracerConfig?.['convertParityErrors'] === true;
      expect(frames.length).toBe(c.result.length);
      c.result.forEach((want, i) => {
        const got = frames[i]!;
        if (want.type === 'suicide') {
          expect(got.type).toBe('SELFDESTRUCT');
          expect(got.from).toBe(want.action['address']!);
          expect(got.to).toBe(want.action['refundAddress']!);
          expect(num(got.value)).toBe(num(want.action['balance']));
          return;
        }
        expect(got.type.toLowerCase()).toBe(want.type === 'create' ? (want.action['creationMethod'] ?? 'create') : want.action['callType']!);
        expect(got.from).toBe(want.action['from']!);
        if (want.type === 'call') expect(got.to).toBe(want.action['to']!);
        expect(num(got.gas)).toBe(num(want.action['gas']));
        if (want.result !== undefined && want.result !== null && want.result['gasUsed'] !== undefined && Object.keys(want.result).length > 0) {
          expect(num(got.gasUsed)).toBe(num(want.result['gasUsed']));
        }
        if (got.type !== 'STATICCALL') expect(num(got.value)).toBe(num(want.action['value']));
        const error = got.error === undefined ? undefined : convert ? parity(got.error) : got.error;
        expect(error ?? '').toBe(want.error ?? '');
      });
    });
  }
});
