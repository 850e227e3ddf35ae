// The one documented difference between anvil 1.7.1's vmTrace answers and blocktrace's, which follows
// reth there (docs/methods.md, the table under the Parity answers), applied to anvil's own recording:
// anvil replays a block without its system calls (backend/mem/mod.rs
// replay_block_transactions_with_inspector), so in prague-devnet block 0x2 the EIP-2935 history
// contract finds no parent hash; reth applies the pre-execution changes first
// (trace_block_until_with_inspector → apply_pre_execution_changes) and reads it. Everything else of
// that answer is anvil's bytes.
import { goJson } from '../../src/encoding/json.ts';

interface Op {
  readonly op: string;
  readonly ex: { push: string[]; mem: { data: string } };
  readonly sub: { ops: Op[] } | null;
}
interface Results {
  output: string;
  trace: { action: { to?: string }; result: { output?: string } | null }[];
  vmTrace: { code: string; ops: Op[] } | null;
}

/** EIP-2935's history contract (its code starts so): `get` answers a hash from its storage. */
const HISTORY_ADDRESS = '0x0000f90827f1c53a10cb7a02335b175320002935';
const HISTORY_CODE = '0x3373fffffffffffffffffffffffffffffffffffffffe14';
const ZERO_WORD = '0x' + '00'.repeat(32);

/**
 * Anvil's answer text with the history contract's read of `parentHash` made as reth makes it: the
 * SLOAD pushes the hash, the memory word it is stored into holds it, the call returns it (the
 * transaction's output and its call trace's).
 */
export function withHistoryRead(answer: string, parentHash: string): string {
  const json = JSON.parse(answer) as { result: (Results & Record<string, unknown>)[] | (Results & Record<string, unknown>) };
  const entries = Array.isArray(json.result) ? json.result : [json.result];
  let changed = 0;
  for (const entry of entries) {
    const trace = entry.vmTrace;
    if (trace === null || !trace.code.startsWith(HISTORY_CODE) || entry.output !== ZERO_WORD) continue;
    entry.output = parentHash;
    for (const t of entry.trace) if (t.action.to === HISTORY_ADDRESS && t.result?.output === ZERO_WORD) t.result.output = parentHash;
    let read = false;
    for (const op of trace.ops) {
      if (op.op === 'SLOAD' && !read) {
        op.ex.push = [`0x${BigInt(parentHash).toString(16)}`];
        read = true;
      } else if (read && op.ex.mem.data === ZERO_WORD) op.ex.mem.data = parentHash;
    }
    changed++;
  }
  if (changed === 0) throw new Error('no read of the history contract in this answer');
  return goJson(json);
}
