// The queued put of plain tries (scratchTries.ts): the root, reads, deletes, proofs and checkpoints of
// a trie filled that way are those of ethereumjs's own put (made inside a checkpoint, where puts are
// not queued), and setting a root drops the puts made on the old one.
import { describe, expect, test } from 'bun:test';
import { createMerkleProof, createMPT, verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { batchScratchTries } from './scratchTries.ts';

batchScratchTries();

/** Receipt-like entries: keys RLP(i), values of a few hundred bytes, some written twice. */
function entries(n: number): [Uint8Array, Uint8Array][] {
  const out: [Uint8Array, Uint8Array][] = [];
  for (let i = 0; i < n; i++) out.push([RLP.encode(i), Uint8Array.from({ length: 1 + ((i * 37) % 300) }, (_, j) => (i * 7 + j) & 0xff)]);
  for (let i = 0; i < n; i += 5) out.push([RLP.encode(i), Uint8Array.of(i & 0xff, 1, 2)]);
  return out;
}

/** The root ethereumjs's own put gives: inside a checkpoint a put is not queued. */
async function ownRoot(list: readonly [Uint8Array, Uint8Array][]): Promise<Uint8Array> {
  const trie = await createMPT({});
  trie.checkpoint();
  for (const [key, value] of list) await trie.put(key, value);
  await trie.commit();
  return trie.root();
}

describe('queued puts on plain tries', () => {
  for (const n of [1, 2, 17, 130, 1000]) {
    test(`${n} receipt-like entries: the root of ethereumjs's own puts`, async () => {
      const list = entries(n);
      const trie = await createMPT({});
      for (const [key, value] of list) await trie.put(key, value);
      expect(bytesToHex(trie.root())).toBe(bytesToHex(await ownRoot(list)));
    });
  }

  test('reads, deletes, proofs and checkpoints after queued puts see every put', async () => {
    const list = entries(64);
    const trie = await createMPT({});
    for (const [key, value] of list) await trie.put(key, value);
    const last = new Map(list.map(([k, v]) => [bytesToHex(k), v]));
    for (const [key, value] of last) expect(bytesToHex((await trie.get(hexToBytes(key as `0x${string}`)))!)).toBe(bytesToHex(value));
    const key = RLP.encode(9);
    const proof = await createMerkleProof(trie, key);
    expect(bytesToHex((await verifyMerkleProof(key, proof, { root: trie.root() }))!)).toBe(bytesToHex(last.get(bytesToHex(key))!));
    await trie.put(RLP.encode(500), Uint8Array.of(5));
    await trie.del(RLP.encode(500));
    expect(bytesToHex(trie.root())).toBe(bytesToHex(await ownRoot(list)));
    await trie.put(RLP.encode(501), Uint8Array.of(5));
    trie.checkpoint();
    await trie.put(RLP.encode(502), Uint8Array.of(6));
    await trie.revert();
    expect(await trie.get(RLP.encode(501))).toEqual(Uint8Array.of(5));
    expect(await trie.get(RLP.encode(502))).toBeNull();
  });

  test('setting a root drops the puts queued on the old one', async () => {
    const trie = await createMPT({});
    await trie.put(RLP.encode(1), Uint8Array.of(1));
    const one = trie.root();
    await trie.put(RLP.encode(2), Uint8Array.of(2));
    trie.root(one);
    expect(await trie.get(RLP.encode(2))).toBeNull();
    expect(await trie.get(RLP.encode(1))).toEqual(Uint8Array.of(1));
  });

  test('tries with hashed keys are not queued (state tries keep ethereumjs put)', async () => {
    const trie = await createMPT({ useKeyHashing: true });
    const plain = await createMPT({ useKeyHashing: true });
    plain.checkpoint();
    for (const [key, value] of entries(40)) {
      await trie.put(key, value);
      await plain.put(key, value);
    }
    await plain.commit();
    expect(bytesToHex(trie.root())).toBe(bytesToHex(plain.root()));
  });
});
