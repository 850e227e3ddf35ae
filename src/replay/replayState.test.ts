// ReplayStateManager against ethereumjs's MerkleStateManager: the same account, storage and code
// writes, deletions, cleared storage, checkpoints, commits and reverts, made as the EVM makes them,
// give the same state roots and the same reads, and a plain MerkleStateManager reads the state it
// wrote. (Put a new Account over one with storage, without clearing it, and the two differ:
// ethereumjs keeps the old slots in its cached storage trie; the EVM never does that.)
import { describe, expect, test } from 'bun:test';
import { Common, Mainnet } from '@ethereumjs/common';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex } from '@ethereumjs/util';
import { loadKeccak } from './keccak.ts';
import { ReplayStateManager, replayCaches } from './replayState.ts';
import { random } from '../../test/helpers/random.ts';

const keccak = await loadKeccak();

const addresses = Array.from({ length: 12 }, (_, i) => new Address(Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j) & 0xff)));
const slots = Array.from({ length: 10 }, (_, i) => Uint8Array.from({ length: 32 }, (_, j) => (j === 31 ? i : 0)));

/**
 * An account's nonce and balance set as the EVM sets them: read, modified and put back, or, where
 * there is none, a new account with its storage cleared (as a CREATE does: evm.ts _executeCreate).
 */
async function touch(sm: MerkleStateManager, address: Address, nonce: bigint): Promise<void> {
  const account = await sm.getAccount(address);
  if (account === undefined) {
    await sm.putAccount(address, new Account(nonce, 10n ** 18n));
    await sm.clearStorage(address);
  } else {
    account.nonce = nonce;
    account.balance += 1n;
    await sm.putAccount(address, account);
  }
}

describe('ReplayStateManager', () => {
  test('random writes, deletions and checkpoints: the roots and reads of MerkleStateManager', async () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const common = new Common({ chain: Mainnet, customCrypto: { keccak256: keccak } });
      const mine = new ReplayStateManager({ common, caches: replayCaches() }, keccak);
      const theirs = new MerkleStateManager({ common, caches: new Caches() });
      const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
      for (let block = 0; block < 8; block++) {
        for (const sm of [mine, theirs]) await sm.checkpoint();
        for (let n = Math.floor(next() * 30); n >= 0; n--) {
          const roll = next();
          const address = pick(addresses);
          const slot = pick(slots);
          const value = next() < 0.25 ? new Uint8Array() : Uint8Array.of(Math.floor(next() * 256), 7);
          const nonce = BigInt(Math.floor(next() * 5));
          const code = Uint8Array.of(0x60, Math.floor(next() * 256), 0x00);
          const other = pick(addresses);
          const undo = next() < 0.5;
          for (const sm of [mine, theirs]) {
            const exists = (await sm.getAccount(address)) !== undefined;
            if (roll < 0.3) await touch(sm, address, nonce);
            else if (roll < 0.6) {
              if (exists) await sm.putStorage(address, slot, value);
            } else if (roll < 0.7) await sm.deleteAccount(address);
            else if (roll < 0.75) {
              if (exists) await sm.clearStorage(address);
            } else if (roll < 0.8) {
              if (exists) await sm.putCode(address, code);
            } else if (roll < 0.9) {
              await sm.checkpoint();
              if (exists) await sm.putStorage(address, slot, Uint8Array.of(9));
              await touch(sm, other, 99n);
              await (undo ? sm.revert() : sm.commit());
            }
          }
        }
        for (const sm of [mine, theirs]) await sm.commit();
        const [a, b] = [await mine.getStateRoot(), await theirs.getStateRoot()];
        expect(`${seed}/${block} ${bytesToHex(a)}`).toBe(`${seed}/${block} ${bytesToHex(b)}`);
      }
      // reads from a fresh view of the final root, each from the other's database
      const reader = mine.shallowCopy(false);
      await reader.setStateRoot(await mine.getStateRoot());
      for (const address of addresses) {
        const want = await theirs.getAccount(address);
        expect((await mine.getAccount(address))?.serialize()).toEqual(want?.serialize());
        expect((await reader.getAccount(address))?.serialize()).toEqual(want?.serialize());
        for (const slot of slots) {
          if (want === undefined) continue;
          const value = bytesToHex(await theirs.getStorage(address, slot));
          expect(bytesToHex(await mine.getStorage(address, slot))).toBe(value);
          expect(bytesToHex(await reader.getStorage(address, slot))).toBe(value);
        }
      }
    }
  }, 60_000);

  test('a message state reads the state at its root and keeps its writes: the database gains nothing', async () => {
    const common = new Common({ chain: Mainnet, customCrypto: { keccak256: keccak } });
    const sm = new ReplayStateManager({ common, caches: replayCaches() }, keccak);
    await sm.checkpoint();
    await touch(sm, addresses[0]!, 1n);
    await sm.putStorage(addresses[0]!, slots[1]!, Uint8Array.of(5));
    await sm.commit();
    const root = await sm.getStateRoot();
    const nodes = sm.database().size;
    const message = sm.messageState(root);
    expect((await message.getAccount(addresses[0]!))?.nonce).toBe(1n);
    expect(bytesToHex(await message.getStorage(addresses[0]!, slots[1]!))).toBe('0x05');
    // a message's whole life as the EVM drives it: checkpoint, writes, commit to depth 0 (a flush)
    await message.checkpoint();
    await message.putStorage(addresses[0]!, slots[1]!, Uint8Array.of(6));
    await touch(message, addresses[1]!, 3n);
    await message.commit();
    expect(bytesToHex(await message.getStorage(addresses[0]!, slots[1]!))).toBe('0x06');
    expect((await message.getAccount(addresses[1]!))?.nonce).toBe(3n);
    expect(sm.database().size).toBe(nodes);
    // and the state it came from is as it was
    expect(bytesToHex(await sm.getStorage(addresses[0]!, slots[1]!))).toBe('0x05');
    expect(await sm.getAccount(addresses[1]!)).toBeUndefined();
    expect(bytesToHex(await sm.getStateRoot())).toBe(bytesToHex(root));
  });
});

