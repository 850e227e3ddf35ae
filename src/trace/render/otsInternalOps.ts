// ots_getInternalOperations as Erigon answers it (erigon rpc/jsonrpc/otterscan_trace_operations.go
// OperationsTracer.OnEnterV2): the frames a transaction opened below its top call, as they were
// entered: a CALL with value is a transfer (0), SELFDESTRUCT a self-destruct (1) from the destroyed
// account to its beneficiary, CREATE (2) and CREATE2 (3) from the creator to the address computed
// when the creation began; frames that reverted or failed are listed too.
// anvil 1.7.1 (storage.rs MinedTransaction::ots_internal_operations) differs: it lists the top call
// as well, and a frame that self-destructs appears once, as the self-destruct, where the frame began
// (docs/otterscan.md).
import { hexBytes, hexQuantity } from '../../encoding/hex.ts';
import type { CallFrame, TxRecording } from '../types.ts';
import { calleeAddress, createdAddress } from './parity.ts';

/** One operation, keys in alloy InternalOperation (and Erigon InternalOperation) order. */
export interface InternalOperationJson {
  type: 0 | 1 | 2 | 3;
  from: string;
  to: string;
  value: string;
}

function operation(frame: CallFrame): InternalOperationJson | undefined {
  const value = hexQuantity(frame.value);
  const from = hexBytes(frame.from);
  switch (frame.kind) {
    case 'CALL':
      return frame.value === 0n ? undefined : { type: 0, from, to: calleeAddress(frame), value };
    case 'SELFDESTRUCT':
      return { type: 1, from, to: calleeAddress(frame), value };
    case 'CREATE':
      return { type: 2, from, to: createdAddress(frame), value };
    case 'CREATE2':
      return { type: 3, from, to: createdAddress(frame), value };
    default:
      return undefined;
  }
}

export function renderInternalOps(tx: TxRecording): InternalOperationJson[] {
  const out: InternalOperationJson[] = [];
  for (const frame of tx.frames) {
    if (frame.depth === 0) continue;
    const op = operation(frame);
    if (op !== undefined) out.push(op);
  }
  return out;
}
