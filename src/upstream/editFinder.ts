// What changed in a node's state between two captured blocks outside any transaction: a cheatcode
// (anvil_setBalance, hardhat_setStorageAt, …_setCode, …_setNonce), a fork's lazy state. anvil and
// Hardhat 2 show such an edit in their state at the block before it (eth_getProof and
// eth_getStorageAt at N, made between N and N+1, give the edited values, then and after N+1 is
// mined), though that block's header keeps its old stateRoot. So block N+1 is first run here on the
// node's state at N, read lazily (as upstream mode runs it), which names every account, code and
// slot it reads with the node's value; each is compared with what the capture's replay of the blocks
// before it left. What differs is an edit: written into the replay's state before the block runs,
// and kept in the capture (fixture/stateEdits.ts) for its offline replay to do the same.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type VM, createVM, runBlock } from '@ethereumjs/vm';
import { Account, createAddressFromString, equalsBytes, hexToBytes, KECCAK256_NULL } from '@ethereumjs/util';
import type { AccountEdit } from '../fixture/types.ts';
import { runOptions } from '../replay/runOptions.ts';
import { applyStateEdits } from '../replay/stateEdits.ts';
import type { UpstreamClient } from './client.ts';
import { StateAt, UpstreamStateManager } from './upstreamState.ts';

/** What an account is to this comparison: a missing one (a zero code hash, as geth reports it) is empty. */
function normal(account: Account | undefined): Account {
  if (account === undefined || equalsBytes(account.codeHash, new Uint8Array(32))) return new Account(account?.nonce, account?.balance);
  return account;
}

export class EditFinder {
  private constructor(
    private readonly client: UpstreamClient,
    private readonly common: Common,
    private readonly vm: VM,
    private readonly state: UpstreamStateManager,
  ) {}

  /** @param blockchain what BLOCKHASH reads (the capture's, so the hashes it asks for are kept). */
  static async create(client: UpstreamClient, common: Common, blockchain: unknown): Promise<EditFinder> {
    const state = new UpstreamStateManager(common, client.url);
    return new EditFinder(client, common, await createVM({ common, stateManager: state, blockchain: blockchain as never }), state);
  }

  /**
   * The edits between `block`'s parent and `block`: where the node's state at the parent differs
   * from `replay` (the state the capture's replay left) for what the block reads. They are written
   * into `replay` before this returns.
   */
  async before(block: Block, replay: UpstreamStateManager): Promise<AccountEdit[]> {
    const node = new StateAt(this.client, block.header.number - 1n, this.common.customCrypto.keccak256!);
    this.state.use(node);
    // a lazy state has no trie to hash: report the header's root (not checked here)
    this.state.getStateRoot = async () => new Uint8Array(block.header.stateRoot);
    try {
      await runBlock(this.vm, runOptions(block, undefined));
    } catch (err) {
      throw node.failure ?? err;
    }
    const edits: AccountEdit[] = [];
    for (const key of [...new Set([...node.accounts.keys(), ...node.codes.keys(), ...node.slots.keys()])].sort()) {
      const edit = await this.compare(key, node, replay);
      if (edit !== undefined) edits.push(edit);
    }
    if (edits.length > 0) await applyStateEdits(replay, edits);
    return edits;
  }

  /** The edit of one account: the fields and slots where the node's value is not the replay's. */
  private async compare(key: string, node: StateAt, replay: UpstreamStateManager): Promise<AccountEdit | undefined> {
    const address = createAddressFromString(key);
    const fields: { balance?: bigint; nonce?: bigint; code?: Uint8Array } = {};
    const theirs = node.accounts.get(key);
    if (theirs !== undefined) {
      const [want, have] = [normal(await theirs), normal(await replay.getAccount(address))];
      if (want.balance !== have.balance) fields.balance = want.balance;
      if (want.nonce !== have.nonce) fields.nonce = want.nonce;
      if (!equalsBytes(want.codeHash, have.codeHash)) fields.code = equalsBytes(want.codeHash, KECCAK256_NULL) ? new Uint8Array() : await node.code(address);
    } else {
      // code read without its account (EXTCODESIZE and the like)
      const code = await node.codes.get(key)!;
      if (!equalsBytes(code, await replay.getCode(address))) fields.code = code;
    }
    const storage: [Uint8Array, Uint8Array][] = [];
    for (const [slotHex, value] of [...(node.slots.get(key) ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      const slot = hexToBytes(slotHex as `0x${string}`);
      const want = await value;
      if (!equalsBytes(want, await replay.getStorage(address, slot))) storage.push([slot, want]);
    }
    if (Object.keys(fields).length === 0 && storage.length === 0) return undefined;
    return { address: address.bytes, ...fields, storage };
  }
}
