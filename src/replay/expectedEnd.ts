// The end a blockchain test expects: the head's hash (`lastblockhash`) and the final state, compared
// by root (the root of `postState` written into an empty trie equals the head's state root exactly
// when every account, code and slot is the same).
import type { Common } from '@ethereumjs/common';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { FixtureError } from '../errors/fixtureError.ts';
import type { ChainSpec } from '../fixture/types.ts';
import { writeGenesisAlloc } from './genesisState.ts';

export async function checkExpectedEnd(spec: ChainSpec, common: Common, headHash: Uint8Array, headRoot: Uint8Array): Promise<void> {
  const expected = spec.expected;
  if (expected === undefined) return;
  if (!equalsBytes(expected.lastBlockHash, headHash)) {
    throw new FixtureError(`${spec.path}: the chain ends at ${bytesToHex(headHash)}, the test expects lastblockhash ${bytesToHex(expected.lastBlockHash)}`);
  }
  let root = expected.postStateRoot;
  if (expected.postState !== undefined) {
    const state = new MerkleStateManager({ common, caches: new Caches() });
    root = await writeGenesisAlloc(spec.path, state, { config: {}, alloc: expected.postState });
  }
  if (root !== undefined && !equalsBytes(root, headRoot)) {
    throw new FixtureError(`${spec.path}: the final state differs from the test's postState (state root ${bytesToHex(headRoot)}, postState's ${bytesToHex(root)})`);
  }
}
