// The simulated chain's numbers and timestamps (go-ethereum internal/ethapi/simulate.go
// sanitizeChain): numbers strictly increasing from the base block, a gap filled with empty blocks,
// timestamps 12 s apart unless given, at most 256 blocks past the base.
import type { Block } from '@ethereumjs/block';
import type { BlockOverrides, StateOverrides } from '../overrides.ts';
import { type SimBlockSpec, type SimCall, SimulationError } from './types.ts';

const MAX_BLOCKS = 256n;
const TIMESTAMP_INCREMENT = 12n;

export interface SimHeader {
  readonly number: bigint;
  readonly time: bigint;
  readonly overrides: BlockOverrides | undefined;
  readonly stateOverrides: StateOverrides | undefined;
  readonly calls: readonly SimCall[];
}

export function sanitizeChain(base: Block, blocks: readonly SimBlockSpec[]): SimHeader[] {
  const out: SimHeader[] = [];
  let prevNumber = base.header.number;
  let prevTime = base.header.timestamp;
  for (const block of blocks) {
    const number = block.blockOverrides?.number ?? prevNumber + 1n;
    if (number <= prevNumber) throw new SimulationError(-38020, `block numbers must be in order: ${number} <= ${prevNumber}`);
    if (number - base.header.number > MAX_BLOCKS) throw new SimulationError(-38026, 'too many blocks');
    for (let n = prevNumber + 1n; n < number; n++) {
      prevTime += TIMESTAMP_INCREMENT;
      out.push({ number: n, time: prevTime, overrides: undefined, stateOverrides: undefined, calls: [] });
    }
    prevNumber = number;
    const time = block.blockOverrides?.time ?? prevTime + TIMESTAMP_INCREMENT;
    if (block.blockOverrides?.time !== undefined && time <= prevTime) {
      throw new SimulationError(-38021, `block timestamps must be in order: ${time} <= ${prevTime}`);
    }
    prevTime = time;
    out.push({ number, time, overrides: block.blockOverrides, stateOverrides: block.stateOverrides, calls: block.calls });
  }
  return out;
}
