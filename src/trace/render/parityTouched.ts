// What anvil's address searches see of a transaction: the addresses its Parity traces name, read
// as alloy rpc-types-trace parity.rs TransactionTrace::contains_address reads them (a call's from
// and to, a creation's sender and, when the trace has a result, the created address, a
// self-destruct's destroyed account), and the creations ots_getContractCreator finds. One trace per
// frame, as in trace/render/parity.ts (calls into precompiles included, as anvil records them).
import { hexBytes } from '../../encoding/hex.ts';
import type { TxRecording } from '../types.ts';
import { calleeAddress, createdAddress, keepsResult, suicideAction } from './parity.ts';

/** The addresses the transaction's traces name (lowercase 0x hex), each once. */
export function parityTouched(tx: TxRecording): Set<string> {
  const out = new Set<string>();
  for (const frame of tx.frames) {
    if (frame.kind === 'SELFDESTRUCT') {
      out.add(suicideAction(tx, frame).address);
    } else if (frame.kind === 'CREATE' || frame.kind === 'CREATE2') {
      out.add(hexBytes(frame.from));
      if (keepsResult(frame)) out.add(createdAddress(frame));
    } else {
      out.add(hexBytes(frame.from));
      out.add(calleeAddress(frame));
    }
  }
  return out;
}

/** A create trace with a result: the address it names and the account that created it. */
export interface ParityCreation {
  readonly address: string;
  readonly creator: string;
}

/** The transaction's create traces that have a result (succeeded or reverted), in trace order. */
export function parityCreations(tx: TxRecording): ParityCreation[] {
  return tx.frames
    .filter((frame) => (frame.kind === 'CREATE' || frame.kind === 'CREATE2') && keepsResult(frame))
    .map((frame) => ({ address: createdAddress(frame), creator: hexBytes(frame.from) }));
}
