// The state root after each transaction of a block (go-ethereum eth/tracers/api.go
// IntermediateRoots: statedb.IntermediateRoot(EIP-158) after each message, the block's system calls
// run first). ethereumjs's runTx has paid the fees and removed the touched empty accounts (EIP-158)
// before its afterTx event, where the root is read. Before Byzantium these are the receipts' roots.
import type { Block } from '@ethereumjs/block';
import { type VM, runBlock } from '@ethereumjs/vm';
import { runOptions } from './runOptions.ts';

export async function intermediateRoots(vm: VM, block: Block, parentRoot: Uint8Array): Promise<Uint8Array[]> {
  const roots: Uint8Array[] = [];
  let failure: unknown;
  const afterTx = (_event: unknown, resolve?: (r?: unknown) => void): void => {
    vm.stateManager.getStateRoot().then(
      (root) => {
        roots.push(root);
        resolve?.();
      },
      (err: unknown) => {
        failure ??= err;
        resolve?.();
      },
    );
  };
  vm.events.on('afterTx', afterTx);
  try {
    await runBlock(vm, runOptions(block, parentRoot));
  } finally {
    vm.events.off('afterTx', afterTx);
  }
  if (failure !== undefined) throw failure;
  return roots;
}
