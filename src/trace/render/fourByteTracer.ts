// go-ethereum's 4byteTracer (eth/tracers/native/4byte.go), behind --all-tracers: how often each
// function selector was called, keyed "0x<selector>-<calldata size after it>", over every CALL,
// CALLCODE, DELEGATECALL and STATICCALL frame (the transaction's own call included) with at least 4
// bytes of input that is not a call into a precompile. A Go map: keys sorted. Its config is ignored.
import { Type } from '@sinclair/typebox';
import { hexBytes } from '../../encoding/hex.ts';
import { ARENA_ONLY, type RecordedTracer } from '../tracerEntry.ts';
import type { TxRecording } from '../types.ts';

const CALLS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL']);

export function renderFourByte(tx: TxRecording): Record<string, number> {
  const counts = new Map<string, number>();
  for (const frame of tx.frames) {
    if (!CALLS.has(frame.kind) || frame.input.length < 4 || frame.precompile) continue;
    const key = `${hexBytes(frame.input.subarray(0, 4))}-${frame.input.length - 4}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const fourByteTracer: RecordedTracer<unknown> = {
  name: '4byteTracer',
  needs: () => ARENA_ONLY,
  configSchema: Type.Unknown(),
  optIn: true,
  render: (tx) => renderFourByte(tx),
};
