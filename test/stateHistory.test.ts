// The state history (src/replay/stateHistory.ts) against the roots the load computed by trie: for
// every block of the shipped chains and of every ethereum/tests sample (creations that clear a
// storage, self-destructs, the DAO fork's moves, empty accounts removed), the whole state of that
// block written out from the history gives the block's own state root, before and after a trip
// through the snapshot's encoding.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readFixture } from '../src/fixture/detect.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import { ReplayStateManager } from '../src/replay/replayState.ts';
import { StateHistory } from '../src/replay/stateHistory.ts';
import { bytesToHex } from '@ethereumjs/util';
import { runBlock, type VM } from '@ethereumjs/vm';
import { ROOT } from './faces.ts';

function files(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.json') ? [path] : [];
  });
}

/** Each block's state root as the history gives it, against the one the load computed. */
async function rootsFromHistory(chain: FixtureChain, history?: StateHistory): Promise<string[]> {
  const sm = (chain as unknown as { stateManager: ReplayStateManager }).stateManager;
  if (history !== undefined) sm.useHistory(history);
  const wrong: string[] = [];
  for (let n = chain.genesis.number; n <= chain.head.number; n++) {
    const block = chain.blockByNumber(n) as unknown as { stateRoot: Uint8Array };
    try {
      const got = (sm.materialized(block.stateRoot) as unknown as { _trie: { root(): Uint8Array } })._trie.root();
      if (bytesToHex(got) !== bytesToHex(block.stateRoot)) wrong.push(`block ${n}: ${bytesToHex(got)}`);
    } catch (error) {
      wrong.push(`block ${n}: ${(error as Error).message}`);
    }
  }
  return wrong;
}

function historyOf(chain: FixtureChain): StateHistory {
  return (chain as unknown as { stateManager: { history: StateHistory } }).stateManager.history;
}

describe('every block of a chain is exact from its history', () => {
  for (const fixture of ['golden/execution-apis/tests', 'golden/execution-apis-pr855', 'golden/fixtures/cancun-devnet/fixture.json', 'golden/fixtures/prague-devnet/fixture.json']) {
    test(fixture, async () => {
      const chain = await FixtureChain.load(readFixture(join(ROOT, fixture)));
      expect(await rootsFromHistory(chain)).toEqual([]);
      // the snapshot's bytes, read back lazily, give the same states
      const sm = (chain as unknown as { stateManager: ReplayStateManager }).stateManager;
      const encoded = historyOf(chain).encode();
      const decoded = StateHistory.lazy(encoded, sm.emptyRoot);
      expect(decoded.versions).toBe(Number(chain.head.number - chain.genesis.number) + 1);
      expect(await rootsFromHistory(chain, decoded)).toEqual([]);
      // read, and written again: the same bytes
      expect(Buffer.from(decoded.encode()).equals(Buffer.from(encoded))).toBe(true);
    });
  }

  test('a load that prunes its database from the first block on (each time it doubles) checks every header root and records the same history', async () => {
    const fixture = readFixture(join(ROOT, 'golden/execution-apis/tests'));
    const whole = historyOf(await FixtureChain.load(fixture)).encode();
    const minimum = ReplayStateManager.pruneMinimum;
    ReplayStateManager.pruneMinimum = 0;
    try {
      const chain = await FixtureChain.load(fixture);
      expect(Buffer.from(historyOf(chain).encode()).equals(Buffer.from(whole))).toBe(true);
      expect(await rootsFromHistory(chain)).toEqual([]);
    } finally {
      ReplayStateManager.pruneMinimum = minimum;
    }
  });

  test('the ethereum/tests sample: every test, every block, each load pruning its database from the first block on', async () => {
    const wrong: string[] = [];
    let blocks = 0;
    const minimum = ReplayStateManager.pruneMinimum;
    ReplayStateManager.pruneMinimum = 0;
    try {
    for (const file of files(join(ROOT, 'golden/blockchain-tests'))) {
      for (const name of Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)) {
        let chain: FixtureChain;
        try {
          chain = await FixtureChain.load(readFixture(`${file}#${name}`));
        } catch (error) {
          // an invalid-block test does not load (test/fixture/blockchainTests.test.ts); a pruning
          // that dropped a live node would show as a node missing
          if (/missing trie node|state history/.test((error as Error).message)) wrong.push(`${name}: ${(error as Error).message}`);
          continue;
        }
        blocks += Number(chain.head.number - chain.genesis.number) + 1;
        for (const line of await rootsFromHistory(chain)) wrong.push(`${name}: ${line}`);
      }
    }
    } finally {
      ReplayStateManager.pruneMinimum = minimum;
    }
    expect(wrong).toEqual([]);
    expect(blocks).toBeGreaterThan(100);
  }, 120_000);
});

test("ethereumjs's VM.shallowCopy runs a block on its parent's state, read by history, as the load did (the bench's plain replay, which reports the known root as the chain does)", async () => {
  const chain = await FixtureChain.load(readFixture(join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json')));
  const inside = chain as unknown as { vm: VM; parentOf(block: unknown): { stateRoot: Uint8Array } };
  const copy = await inside.vm.shallowCopy(false);
  expect(copy.stateManager).toBeInstanceOf(ReplayStateManager);
  for (const n of [1n, chain.head.number]) {
    const stored = chain.blockByNumber(n)!;
    const block = (stored as unknown as { block: Parameters<typeof runBlock>[1]['block'] }).block!;
    // a state read by history has a root only inside scratch(): the known one is reported
    copy.stateManager.getStateRoot = async () => block.header.stateRoot;
    const result = await runBlock(copy, {
      block, root: inside.parentOf(stored).stateRoot, generate: true, setHardfork: true,
      skipBlockValidation: true, skipHeaderValidation: true, skipHardForkValidation: true,
    });
    expect(result.gasUsed).toBe(block.header.gasUsed);
    expect(bytesToHex(result.receiptsRoot)).toBe(bytesToHex(block.header.receiptTrie));
  }
});
