// A Merkle Patricia trie in memory for the generator (bench/generate.ts): nodes are objects that
// keep their encoded reference until a write passes through them, so a block's root hashes only the
// paths that block wrote, and a write is a walk down objects instead of ethereumjs's node reads and
// decodes from a key-value store (whose journal and old nodes grow with the chain). Inserts and
// updates only: the generated chain never deletes an account or a slot. Keys are prefix-free (the
// 32-byte hashed keys of the state and storage tries, the RLP indices of the transaction and receipt
// tries), so a branch never holds a value. Proved by the loader's header checks on a generated chain
// (test/fixture/generate.test.ts) and by the genesis root the generator compares with ethereumjs's.
// Not src/replay/stateTrie.ts: that trie keeps every version's nodes in a database (the archive a
// replay reads past states from), which is the memory a generator of a million transactions must not
// keep; this one holds the latest version only.
import { keccakNow } from '../../src/replay/keccak.ts';

/** A leaf keeps its whole key and where its path starts in it (nibbles), not a copy of the path. */
interface Leaf { kind: 0; key: Uint8Array; at: number; value: Uint8Array; ref: Uint8Array | undefined }
interface Extension { kind: 1; path: Uint8Array; child: Node; ref: Uint8Array | undefined }
interface Branch { kind: 2; children: (Node | undefined)[]; ref: Uint8Array | undefined }
type Node = Leaf | Extension | Branch;

const EMPTY_STRING = Uint8Array.of(0x80);
/** keccak(rlp('')): the root of an empty trie. */
export const EMPTY_TRIE_ROOT = keccakNow(EMPTY_STRING);

export class MemoryTrie {
  #root: Node | undefined;

  /** Sets `key` (raw bytes, kept; the caller hashes it for a secure trie) to `value` (non-empty). */
  put(key: Uint8Array, value: Uint8Array): void {
    this.#root = insert(this.#root, key, 0, value);
  }

  /** keccak of the root node's encoding. */
  root(): Uint8Array {
    return this.#root === undefined ? EMPTY_TRIE_ROOT : keccakNow(encode(this.#root));
  }
}

/** The root of the trie keyed by rlp(index), as a block's transactions and receipts tries are. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  const trie = new MemoryTrie();
  values.forEach((value, i) => trie.put(rlpBytes(indexBytes(i)), value));
  return trie.root();
}

function nibble(key: Uint8Array, i: number): number {
  return i & 1 ? key[i >> 1]! & 15 : key[i >> 1]! >> 4;
}

function pathLength(node: Leaf | Extension): number {
  return node.kind === 0 ? node.key.length * 2 - node.at : node.path.length;
}

function pathNibble(node: Leaf | Extension, i: number): number {
  return node.kind === 0 ? nibble(node.key, node.at + i) : node.path[i]!;
}

function leaf(key: Uint8Array, at: number, value: Uint8Array): Leaf {
  return { kind: 0, key, at, value, ref: undefined };
}

/** `node` under the first `length` nibbles of `from`'s path (none when 0). */
function under(from: Leaf | Extension, length: number, node: Node): Node {
  if (length === 0) return node;
  const path = new Uint8Array(length);
  for (let i = 0; i < length; i++) path[i] = pathNibble(from, i);
  return { kind: 1, path, child: node, ref: undefined };
}

function insert(node: Node | undefined, key: Uint8Array, at: number, value: Uint8Array): Node {
  const keyLength = key.length * 2;
  if (node === undefined) return leaf(key, at, value);
  node.ref = undefined;
  if (node.kind === 2) {
    if (at === keyLength) throw new Error('MemoryTrie: a key is a prefix of another');
    const i = nibble(key, at);
    node.children[i] = insert(node.children[i], key, at + 1, value);
    return node;
  }
  const length = pathLength(node);
  let shared = 0;
  while (shared < length && at + shared < keyLength && pathNibble(node, shared) === nibble(key, at + shared)) shared++;
  if (node.kind === 0 && shared === length && at + shared === keyLength) {
    node.value = value;
    return node;
  }
  if (node.kind === 1 && shared === length) {
    node.child = insert(node.child, key, at + shared, value);
    return node;
  }
  if (shared === length || at + shared === keyLength) throw new Error('MemoryTrie: a key is a prefix of another');
  const branch: Branch = { kind: 2, children: new Array<Node | undefined>(16).fill(undefined), ref: undefined };
  const mine = pathNibble(node, shared);
  if (node.kind === 0) {
    branch.children[mine] = leaf(node.key, node.at + shared + 1, node.value);
  } else {
    const rest = node.path.subarray(shared + 1);
    branch.children[mine] = rest.length === 0 ? node.child : { kind: 1, path: rest, child: node.child, ref: undefined };
  }
  branch.children[nibble(key, at + shared)] = leaf(key, at + shared + 1, value);
  return under(node, shared, branch);
}

/** The node's RLP; its reference in a parent is this when shorter than 32 bytes, else its keccak. */
function encode(node: Node): Uint8Array {
  if (node.kind === 2) return rlpList(node.children.map((child) => (child === undefined ? EMPTY_STRING : ref(child))).concat([EMPTY_STRING]));
  const path = rlpBytes(hexPrefix(node));
  return rlpList([path, node.kind === 0 ? rlpBytes(node.value) : ref(node.child)]);
}

function ref(node: Node): Uint8Array {
  if (node.ref === undefined) {
    const encoded = encode(node);
    node.ref = encoded.length < 32 ? encoded : rlpBytes(keccakNow(encoded));
  }
  return node.ref;
}

/** The compact (hex-prefix) encoding of a node's nibble path. */
function hexPrefix(node: Leaf | Extension): Uint8Array {
  const length = pathLength(node);
  const odd = length % 2;
  const out = new Uint8Array(1 + (length >> 1));
  out[0] = ((node.kind === 0 ? 2 : 0) + odd) << 4;
  let i = 0;
  if (odd === 1) out[0]! |= pathNibble(node, i++);
  for (let o = 1; i < length; i += 2, o++) out[o] = (pathNibble(node, i) << 4) | pathNibble(node, i + 1);
  return out;
}

/** The big-endian bytes of a non-negative integer, without leading zeros (0 is empty). */
export function indexBytes(n: number | bigint): Uint8Array {
  let v = BigInt(n);
  const out: number[] = [];
  while (v > 0n) {
    out.unshift(Number(v & 255n));
    v >>= 8n;
  }
  return Uint8Array.from(out);
}

function lengthPrefix(length: number, short: number): Uint8Array {
  if (length < 56) return Uint8Array.of(short + length);
  const len = indexBytes(length);
  return Uint8Array.of(short + 55 + len.length, ...len);
}

/** RLP of a byte string. */
export function rlpBytes(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 1 && bytes[0]! < 0x80) return bytes;
  const prefix = lengthPrefix(bytes.length, 0x80);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

/** RLP of a list whose items are already encoded. */
export function rlpList(items: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const item of items) length += item.length;
  const prefix = lengthPrefix(length, 0xc0);
  const out = new Uint8Array(prefix.length + length);
  out.set(prefix);
  let at = prefix.length;
  for (const item of items) {
    out.set(item, at);
    at += item.length;
  }
  return out;
}
