// Reads of the state after a block (balance, nonce, code, storage) from the trie at that block's
// stored root: a state manager of its own per root, on the same trie database as the replay's, so
// reads never disturb the VM that records traces. A few are kept, most recently used first.
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { Address, bytesToUnprefixedHex, setLengthLeft } from '@ethereumjs/util';
import type { StateReader } from './chainView.ts';

const KEEP = 16;

export class StateReaders {
  private readonly byRoot = new Map<string, Promise<StateReader>>();

  constructor(private readonly base: MerkleStateManager) {}

  at(root: Uint8Array): Promise<StateReader> {
    const key = bytesToUnprefixedHex(root);
    let reader = this.byRoot.get(key);
    if (reader === undefined) {
      reader = this.open(root);
      reader.catch(() => this.byRoot.delete(key));
    } else {
      this.byRoot.delete(key);
    }
    this.byRoot.set(key, reader);
    if (this.byRoot.size > KEEP) this.byRoot.delete(this.byRoot.keys().next().value!);
    return reader;
  }

  private async open(root: Uint8Array): Promise<StateReader> {
    const sm = this.base.shallowCopy(true);
    await sm.setStateRoot(root);
    const account = (address: Uint8Array) => sm.getAccount(new Address(address));
    return {
      balance: async (address) => (await account(address))?.balance ?? 0n,
      nonce: async (address) => (await account(address))?.nonce ?? 0n,
      code: (address) => sm.getCode(new Address(address)),
      storage: async (address, slot) => {
        if ((await account(address)) === undefined) return new Uint8Array(32);
        return setLengthLeft(await sm.getStorage(new Address(address), slot), 32);
      },
    };
  }
}
