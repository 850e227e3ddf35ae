// ots_traceTransaction: every frame of a transaction as one flat entry, depth first.
//
// Calls (CALL, CALLCODE, DELEGATECALL, STATICCALL) as anvil 1.7.1 answers them (anvil
// crates/anvil/src/eth/otterscan/api.rs ots_trace_transaction, alloy rpc-types-trace otterscan.rs
// TraceEntry::from_transaction_trace): from its Parity traces, calls into precompiles included,
// `value` always set, `output` the trace result's (none when the frame halted).
// anvil keeps only the call traces; creations and self-destructs are entries of Erigon's tracer
// (Otterscan's reference, erigon rpc/jsonrpc/otterscan_trace_transaction.go OnEnter/OnExit), so
// they are written as Erigon writes them: CREATE/CREATE2 with the init code as input, the
// address computed when the creation began as `to`, the returned code (or revert data) as output;
// SELFDESTRUCT with the beneficiary as `to`, the destroyed balance as value, empty input and output.
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import type { CallFrame, TxRecording } from '../types.ts';
import { calleeAddress, createdAddress, keepsResult } from './parity.ts';

/** One entry, keys in alloy TraceEntry (and Erigon TraceEntry) order. */
export interface OtsTraceEntry {
  type: string;
  depth: number;
  from: string;
  to: string;
  value: string;
  input: string;
  output: string;
}

function entry(frame: CallFrame): OtsTraceEntry {
  if (frame.kind === 'SELFDESTRUCT') {
    return {
      type: 'SELFDESTRUCT',
      depth: frame.depth,
      from: hexBytes(frame.from),
      to: calleeAddress(frame),
      value: hexQuantity(frame.value),
      input: '0x',
      output: '0x',
    };
  }
  const create = frame.kind === 'CREATE' || frame.kind === 'CREATE2';
  return {
    type: frame.kind,
    depth: frame.depth,
    from: hexBytes(frame.from),
    to: create ? createdAddress(frame) : calleeAddress(frame),
    value: hexQuantity(frame.value),
    input: hexBytes(frame.input),
    output: keepsResult(frame) ? hexBytes(frame.output) : '0x',
  };
}

/** The transaction's entries in the order its frames were entered. */
export function renderOtsTrace(tx: TxRecording): OtsTraceEntry[] {
  return tx.frames.map(entry);
}
