// What a run stopped midway leaves open in the VM's state, closed again (recordings.ts, callTrace.ts).
import type { VM } from '@ethereumjs/vm';

/**
 * After a run stopped midway (a sink threw: the answer grew too large, its deadline passed), closes
 * what the stopped frames left open, down to `keep` checkpoints: ethereumjs reverts one checkpoint per
 * level it unwinds through (runTx, runBlock), not those of the messages in between. The next run
 * starts from a stored root.
 */
export async function unwind(vm: VM, keep = 0): Promise<void> {
  const state = vm.stateManager as unknown as { _checkpointCount?: number; revert(): Promise<void> };
  while ((state._checkpointCount ?? 0) > keep) await state.revert();
  vm.evm.journal.cleanJournal();
}
