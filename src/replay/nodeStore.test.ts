// NodeStore: the same answers as a Map for every use the state database has (ethereumjs's MapDB,
// the replay's trie, the snapshot's iteration), with nodes in its arena; a pruning keeps what was
// marked; a base is read through.
import { describe, expect, test } from 'bun:test';
import { bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import { keccak256 } from 'ethereum-cryptography/keccak.js';
import { NodeStore } from './nodeStore.ts';
import type { NodeSpan } from './stateTrie.ts';

const made = new Map<number, [string, Uint8Array]>();

/** A deterministic node: its key is the keccak of its bytes, as a trie's is. */
function node(i: number): [string, Uint8Array] {
  let pair = made.get(i);
  if (pair === undefined) {
    const bytes = new Uint8Array(1 + (i % 600));
    for (let j = 0; j < bytes.length; j++) bytes[j] = (i * 31 + j) & 0xff;
    made.set(i, (pair = [bytesToUnprefixedHex(keccak256(bytes)), bytes]));
  }
  return pair;
}

const sorted = (entries: Iterable<[string, string | Uint8Array]>): [string, string][] =>
  [...entries].map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : bytesToUnprefixedHex(v)]).sort(([a], [b]) => (a < b ? -1 : 1));

describe('NodeStore', () => {
  test('answers as a Map through puts, deletes, puts again and compactions, for nodes and other keys', () => {
    const store = new NodeStore();
    const model = new Map<string, Uint8Array>();
    let seed = 7;
    // xorshift32: every bit as random as the next
    const random = (n: number): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const steps = (n: number, putsInTen: number): void => {
      for (let step = 0; step < n; step++) {
        const [key, value] = node(random(20_000));
        if (random(10) < putsInTen) {
          store.set(key, value);
          model.set(key, value);
        } else expect(store.delete(key)).toBe(model.delete(key));
      }
    };
    const compactAbove = NodeStore.compactAbove;
    NodeStore.compactAbove = 1000;
    try {
      // puts and deletes, then mostly deletes (the store compacts as the dead outnumber the live), then puts again
      steps(60_000, 7);
      steps(60_000, 1);
      steps(40_000, 7);
    } finally {
      NodeStore.compactAbove = compactAbove;
    }
    // a code's key (a prefix byte more) and a key that is not hex are ordinary entries
    const code = `63${'ab'.repeat(32)}`;
    store.set(code, Uint8Array.of(0x60, 0x00));
    model.set(code, Uint8Array.of(0x60, 0x00));
    store.set('z'.repeat(64), Uint8Array.of(1));
    model.set('z'.repeat(64), Uint8Array.of(1));
    expect(store.size).toBe(model.size);
    expect(store.nodes).toBe(model.size - 2);
    for (let i = 0; i < 20_000; i++) {
      const [key] = node(i);
      expect(store.has(key)).toBe(model.has(key));
      expect(store.get(key)).toEqual(model.get(key));
    }
    expect(sorted(store)).toEqual(sorted(model));
    expect(sorted(store.entries())).toEqual(sorted(model));
    expect([...store.keys()].sort()).toEqual([...model.keys()].sort());
    const seen: string[] = [];
    store.forEach((_, key) => seen.push(key));
    expect(seen.sort()).toEqual([...model.keys()].sort());
    expect(new Map(store).size).toBe(model.size);
  });

  test('a read is a copy: changing it changes nothing held', () => {
    const store = new NodeStore();
    const [key, value] = node(40);
    store.set(key, value);
    const read = store.get(key) as Uint8Array;
    read.fill(0);
    expect(store.get(key)).toEqual(value);
  });

  test('a hex string value is kept as its bytes (MapDB of string encoding)', () => {
    const store = new NodeStore();
    const [key, value] = node(3);
    store.set(key, bytesToUnprefixedHex(value));
    expect(store.get(key)).toEqual(value);
  });

  test('a pruning keeps the nodes marked, and only those; a missing node is named', () => {
    const store = new NodeStore();
    const keys: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const [key, value] = node(i);
      store.set(key, value);
      keys.push(key);
    }
    store.set(`63${'00'.repeat(32)}`, Uint8Array.of(1));
    // deleted ones stay dead through the pruning (packed in place: the arena holds the rest in order)
    for (let i = 1; i < 5000; i += 6) store.delete(keys[i]!);
    store.startMarking();
    const span: NodeSpan = { buf: new Uint8Array(), start: 0, end: 0 };
    for (let i = 0; i < 5000; i += 3) {
      // the hash read where it lies in a larger buffer, as the walk reads it inside a node
      const within = hexToBytes(`0x00${keys[i]!}`);
      expect(store.mark(within, 1, span)).toBe(true);
      expect(span.buf.subarray(span.start, span.end)).toEqual(node(i)[1]);
      expect(store.mark(within, 1, span)).toBe(false);
    }
    expect(() => store.mark(new Uint8Array(32), 0, span)).toThrow(`missing trie node ${'00'.repeat(32)}`);
    store.sweep();
    expect(store.nodes).toBe(Math.ceil(5000 / 3));
    for (let i = 0; i < 5000; i++) expect(store.get(keys[i]!)).toEqual(i % 3 === 0 ? node(i)[1] : undefined);
    expect(store.get(`63${'00'.repeat(32)}`)).toEqual(Uint8Array.of(1));
    // a node put again after its deletion is appended out of order: the next pruning copies
    store.delete(keys[0]!);
    store.set(keys[0]!, node(0)[1]);
    store.set(keys[1]!, node(1)[1]);
    store.startMarking();
    for (const i of [0, 1, 3, 4998]) store.mark(hexToBytes(`0x${keys[i]!}`), 0, span);
    store.sweep();
    expect(store.nodes).toBe(4);
    for (let i = 0; i < 5000; i++) expect(store.get(keys[i]!)).toEqual([0, 1, 3, 4998].includes(i) ? node(i)[1] : undefined);
  });

  test('a base is read through and never written; dropNodes keeps the other keys', () => {
    const base = new Map<string, string | Uint8Array>([[`63${'11'.repeat(32)}`, Uint8Array.of(9)]]);
    const [inBase, baseValue] = node(1);
    base.set(inBase, baseValue);
    const store = new NodeStore(base);
    expect(store.get(`63${'11'.repeat(32)}`)).toEqual(Uint8Array.of(9));
    expect(store.has(inBase)).toBe(true);
    expect(store.get(inBase)).toEqual(baseValue);
    const [own, ownValue] = node(2);
    store.set(own, ownValue);
    store.set('code', Uint8Array.of(5));
    expect(base.has(own)).toBe(false);
    expect(base.has('code')).toBe(false);
    store.dropNodes();
    expect(store.get(own)).toBeUndefined();
    expect(store.get('code')).toEqual(Uint8Array.of(5));
    expect(store.size).toBe(1);
  });
});
