// Reads of the state after a block (balance, nonce, code, storage) at that block's stored root: a
// state manager of its own per root, on the same database and history as the replay's, so reads
// never disturb the VM that records traces. A few are kept, most recently used first. What needs
// the trie itself (ranges in hash order, proofs) reads the state written out as one
// (ReplayStateManager.materialized), of which the last two are kept.
import { createMerkleProof, createMPT, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager';
import { Address, bytesToBigInt, bytesToUnprefixedHex, concatBytes, createAccountFromRLP, equalsBytes, KECCAK256_NULL, KECCAK256_RLP, setLengthLeft } from '@ethereumjs/util';
import type { AccountProof, StateReader, TrieAccount } from './chainView.ts';
import type { ReplayStateManager } from './replayState.ts';
import { trieRange } from './trieRange.ts';

const KEEP = 16;
/** States written out as tries kept (each as big as the state). */
const KEEP_TRIES = 2;

export class StateReaders {
  private readonly byRoot = new Map<string, Promise<StateReader>>();
  private readonly tries = new Map<string, ReplayStateManager>();

  constructor(private readonly base: ReplayStateManager) {}

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

  /** The state at `root` read by trie. */
  private trieAt(root: Uint8Array): ReplayStateManager {
    const key = bytesToUnprefixedHex(root);
    let sm = this.tries.get(key);
    if (sm === undefined) sm = this.base.materialized(root);
    else this.tries.delete(key);
    this.tries.set(key, sm);
    if (this.tries.size > KEEP_TRIES) this.tries.delete(this.tries.keys().next().value!);
    return sm;
  }

  private async open(root: Uint8Array): Promise<StateReader> {
    const sm = this.base.messageState(root);
    const account = (address: Uint8Array) => sm.getAccount(new Address(address));
    const full = () => this.trieAt(root);
    const fullTrie = () => full()['_trie'] as MerklePatriciaTrie;
    const trieAccount = (hash: Uint8Array, leaf: Uint8Array): TrieAccount => {
      const a = createAccountFromRLP(leaf);
      return { hash, nonce: a.nonce, balance: a.balance, storageRoot: a.storageRoot, codeHash: a.codeHash };
    };
    return {
      root,
      async *accounts(start) {
        for await (const leaf of trieRange(fullTrie(), root, start)) yield trieAccount(leaf.key, leaf.value);
      },
      account: async (address) => {
        const trie = fullTrie();
        const hash = trie['hash'](address) as Uint8Array;
        const leaf = await trie.get(address);
        return leaf === null ? undefined : trieAccount(hash, leaf);
      },
      async *storageSlots(owner, start) {
        // the storage trie as ethereumjs opens it: by the hashed address, at the account's root
        const storage = full()['_getStorageTrie'](owner.hash, { storageRoot: owner.storageRoot } as never) as MerklePatriciaTrie;
        for await (const leaf of trieRange(storage, owner.storageRoot, start)) yield { hash: leaf.key, value: RLP.decode(leaf.value) as Uint8Array };
      },
      codeByHash: async (codeHash) => {
        if (equalsBytes(codeHash, KECCAK256_NULL)) return new Uint8Array();
        const key = sm['_prefixCodeHashes'] === false ? codeHash : concatBytes(CODEHASH_PREFIX, codeHash);
        return (await (sm['_trie'] as MerklePatriciaTrie).database().get(key)) ?? new Uint8Array();
      },
      balance: async (address) => (await account(address))?.balance ?? 0n,
      nonce: async (address) => (await account(address))?.nonce ?? 0n,
      code: (address) => sm.getCode(new Address(address)),
      storage: async (address, slot) => {
        if ((await account(address)) === undefined) return new Uint8Array(32);
        return setLengthLeft(await sm.getStorage(new Address(address), slot), 32);
      },
      proof: async (address, slots): Promise<AccountProof> => {
        const sm = full();
        const found = await sm.getAccount(new Address(address));
        // the trie and storage tries, as ethereumjs's own getMerkleStateProof reads them (proof/merkle.ts)
        const accountProof = await createMerkleProof(sm['_trie'], address);
        // an absent account's slots are proven against the empty storage trie (go-ethereum GetProof)
        const storageTrie = found === undefined ? await createMPT({ useKeyHashing: true }) : sm['_getStorageTrie'](new Address(address), found);
        const storageProof = await Promise.all(
          slots.map(async (slot) => ({
            value: found === undefined ? 0n : bytesToBigInt(await sm.getStorage(new Address(address), slot)),
            proof: await createMerkleProof(storageTrie, slot),
          })),
        );
        return {
          balance: found?.balance ?? 0n,
          nonce: found?.nonce ?? 0n,
          codeHash: found?.codeHash ?? KECCAK256_NULL,
          storageHash: found?.storageRoot ?? KECCAK256_RLP,
          accountProof,
          storageProof,
        };
      },
    };
  }
}
