// The leaves of a hashed-key trie in key order from a start key, as go-ethereum's trie iterators
// walk them (trie.NewIterator over NodeIterator(start)): the account trie for debug_accountRange and
// debug_dumpBlock, a storage trie for debug_storageRangeAt, both tries for
// debug_getModifiedAccountsBy*. Subtrees wholly before the start key are never read.
import { BranchMPTNode, ExtensionMPTNode, LeafMPTNode, type MerklePatriciaTrie } from '@ethereumjs/mpt';
import { equalsBytes } from '@ethereumjs/util';

export interface TrieLeaf {
  /** The hashed key (32 bytes). */
  readonly key: Uint8Array;
  /** The stored value (RLP). */
  readonly value: Uint8Array;
}

type NodeRef = Uint8Array | Uint8Array[];

function toNibbles(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) out.push(b >> 4, b & 15);
  return out;
}

function toBytes(nibbles: readonly number[]): Uint8Array {
  const out = new Uint8Array(nibbles.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

/** -1, 0 or 1: `a` against the same-length stretch of `start` from `at`. */
function compare(a: readonly number[], start: readonly number[], at: number): number {
  for (let i = 0; i < a.length; i++) {
    const s = start[at + i];
    if (s === undefined) return 1;
    if (a[i]! !== s) return a[i]! < s ? -1 : 1;
  }
  return 0;
}

/** Every leaf of the trie at `root` whose key is at least `start` (32 bytes), in key order. */
export async function* trieRange(trie: MerklePatriciaTrie, root: Uint8Array, start: Uint8Array): AsyncGenerator<TrieLeaf> {
  if (equalsBytes(root, trie.EMPTY_TRIE_ROOT)) return;
  yield* walk(trie, root, [], toNibbles(start), true);
}

async function* walk(trie: MerklePatriciaTrie, ref: NodeRef, path: number[], start: readonly number[], bounded: boolean): AsyncGenerator<TrieLeaf> {
  const node = await trie.lookupNode(ref);
  if (node instanceof LeafMPTNode) {
    const key = [...path, ...node.key()];
    if (!bounded || compare(key, start, 0) >= 0) yield { key: toBytes(key), value: node.value() };
  } else if (node instanceof ExtensionMPTNode) {
    const part = node.key();
    const order = bounded ? compare(part, start, path.length) : 1;
    if (order >= 0) yield* walk(trie, node.value() as NodeRef, [...path, ...part], start, order === 0);
  } else if (node instanceof BranchMPTNode) {
    const from = bounded ? (start[path.length] ?? 0) : 0;
    for (let i = from; i < 16; i++) {
      const child = node.getBranch(i);
      if (child !== null) yield* walk(trie, child as NodeRef, [...path, i], start, bounded && i === from);
    }
  }
}
