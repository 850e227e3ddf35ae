// The logs of one eth_simulateV1 call as go-ethereum's simulation tracer collects them
// (internal/ethapi/logtracer.go): walking the call tree in execution order, an ERC-7528 transfer
// log (address 0xeeee…eeee, the ERC-20 Transfer topic) for each frame that moves ether when
// `traceTransfers` is on (not DELEGATECALL or CALLCODE), the frame's own logs between its
// children, and a failed frame's logs (its children's too) dropped. Every captured log takes the
// next index of the block, dropped ones included, as the tracer's counter does.
import { bigIntToUnpaddedBytes, setLengthLeft } from '@ethereumjs/util';
import type { CallFrame, TxRecording } from '../types.ts';

/** keccak256("Transfer(address,address,uint256)"). */
const TRANSFER_TOPIC = Uint8Array.from(Buffer.from('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'hex'));
const TRANSFER_ADDRESS = new Uint8Array(20).fill(0xee);

export interface SimulatedLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** The block-wide index the tracer gave it. */
  readonly index: number;
}

const word = (value: bigint): Uint8Array => setLengthLeft(bigIntToUnpaddedBytes(value), 32);

export function simulateLogs(tx: TxRecording, traceTransfers: boolean, firstIndex: number): { logs: SimulatedLog[]; next: number } {
  let next = firstIndex;
  const capture = (address: Uint8Array, topics: readonly Uint8Array[], data: Uint8Array): SimulatedLog => ({ address, topics, data, index: next++ });
  const visit = (frame: CallFrame): SimulatedLog[] => {
    const out: SimulatedLog[] = [];
    const to = frame.to ?? frame.createAddress;
    if (traceTransfers && frame.kind !== 'DELEGATECALL' && frame.kind !== 'CALLCODE' && frame.value > 0n && to !== undefined) {
      out.push(capture(TRANSFER_ADDRESS, [TRANSFER_TOPIC, setLengthLeft(frame.from, 32), setLengthLeft(to, 32)], word(frame.value)));
    }
    let child = 0;
    for (const log of frame.logs) {
      while (child < log.position && child < frame.children.length) out.push(...visit(tx.frames[frame.children[child++]!]!));
      out.push(capture(log.address, log.topics, log.data));
    }
    while (child < frame.children.length) out.push(...visit(tx.frames[frame.children[child++]!]!));
    return frame.failure === undefined ? out : [];
  };
  const root = tx.frames[0];
  return { logs: root === undefined ? [] : visit(root), next };
}
