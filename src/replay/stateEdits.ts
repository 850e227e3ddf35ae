// Edits made to a chain's state between two blocks, outside any transaction (a capture's
// "stateEdits": anvil_setBalance and friends), written into the state the earlier block left, so
// the later one runs from the state the node ran it from. Capture and the fixture replay both write
// them here, the one into its lazy state, the other into its trie, so the two agree.
import type { StateManagerInterface } from '@ethereumjs/common';
import { Account, Address } from '@ethereumjs/util';
import type { AccountEdit } from '../fixture/types.ts';

export async function applyStateEdits(state: StateManagerInterface, edits: readonly AccountEdit[]): Promise<void> {
  await state.checkpoint();
  for (const edit of edits) {
    const address = new Address(edit.address);
    const account = (await state.getAccount(address)) ?? new Account();
    if (edit.nonce !== undefined) account.nonce = edit.nonce;
    if (edit.balance !== undefined) account.balance = edit.balance;
    await state.putAccount(address, account);
    if (edit.code !== undefined) await state.putCode(address, edit.code);
    // An account the edit leaves empty stays, empty: since Spurious Dragon (EIP-161) no opcode
    // tells it from a missing one, and the state root, where they differ, is not checked here.
    for (const [slot, value] of edit.storage) await state.putStorage(address, slot, value);
  }
  await state.commit();
}
