// The end a blockchain or state test expects: the head's hash (`lastblockhash`) and the final state,
// compared by root (the root of `postState` written into an empty trie equals the head's state root
// exactly when every account, code and slot is the same); for a state test, the logs hash (keccak of
// the RLP of the block's logs, as go-ethereum tests/state_test_util.go rlpHash(logs)), or the refusal
// of its transaction.
import type { Common } from '@ethereumjs/common';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { keccakNow } from './keccak.ts';
import { FixtureError } from '../errors/fixtureError.ts';
import type { ChainSpec } from '../fixture/types.ts';
import { writeGenesisAlloc } from './genesisState.ts';

/** A log as the receipts hold it. */
interface Log {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
}

export async function checkExpectedEnd(spec: ChainSpec, common: Common, headHash: Uint8Array, headRoot: Uint8Array, headLogs: () => readonly Log[]): Promise<void> {
  const expected = spec.expected;
  if (expected === undefined) return;
  if (expected.exception !== undefined) {
    throw new FixtureError(`${spec.path}: the test expects the transaction refused (${expected.exception}), but blocktrace ran it`);
  }
  if (expected.lastBlockHash !== undefined && !equalsBytes(expected.lastBlockHash, headHash)) {
    throw new FixtureError(`${spec.path}: the chain ends at ${bytesToHex(headHash)}, the test expects lastblockhash ${bytesToHex(expected.lastBlockHash)}`);
  }
  let root = expected.postStateRoot;
  if (expected.postState !== undefined) {
    const state = new MerkleStateManager({ common, caches: new Caches() });
    root = await writeGenesisAlloc(spec.path, state, { config: {}, alloc: expected.postState });
  }
  if (root !== undefined && !equalsBytes(root, headRoot)) {
    // a blockchain test names its postState (or postStateHash); a state test's root is its post entry's hash
    const [what, theirs] = expected.lastBlockHash === undefined ? ["the test's", "the test's"] : ["the test's postState", "postState's"];
    throw new FixtureError(`${spec.path}: the final state differs from ${what} (state root ${bytesToHex(headRoot)}, ${theirs} ${bytesToHex(root)})`);
  }
  if (expected.logsHash !== undefined) {
    const got = keccakNow(RLP.encode(headLogs().map((l) => [l.address, [...l.topics], l.data])));
    if (!equalsBytes(got, expected.logsHash)) {
      throw new FixtureError(`${spec.path}: the logs differ from the test's (logs hash ${bytesToHex(got)}, the test's ${bytesToHex(expected.logsHash)})`);
    }
  }
}

/** The line for a state test whose transaction did not run, as its `expectException` wants: the test's exception and blocktrace's reason. */
export function refusalAsExpected(spec: ChainSpec, reason: string): string | undefined {
  const exception = spec.expected?.exception;
  return exception === undefined ? undefined : `${spec.path}: the transaction is refused, as the test expects (${exception}); blocktrace's reason: ${reason}`;
}
