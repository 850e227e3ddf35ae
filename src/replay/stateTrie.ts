// A Merkle-Patricia trie that takes a whole batch of writes at once and hashes each node it changed
// once, at the end (ethereumjs's MerklePatriciaTrie re-walks, re-encodes and re-hashes the path of
// every single put). Nodes are immutable objects, shared between roots and kept decoded, so a read
// walks objects instead of decoding RLP. The nodes it writes are the canonical ones (the hash of a
// node's RLP, nodes under 32 bytes embedded in their parent, the root always stored), in the same
// database the ethereumjs trie reads: either can read what the other wrote.
//
// Keys are paths of hex nibbles (a hashed key as unprefixed hex); values are the stored bytes.
import { RLP } from '@ethereumjs/rlp';
import { bytesToUnprefixedHex, equalsBytes, unprefixedHexToBytes } from '@ethereumjs/util';
import { type RlpItem, rlpItemInto } from './rlpItem.ts';

/** A child of a branch or an extension: a node in hand, or the hash of one not read yet. */
type Child = TrieNode | Uint8Array;

class Leaf {
  enc: Uint8Array | undefined;
  hash: Uint8Array | undefined;
  constructor(readonly path: string, readonly value: Uint8Array) {}
}

class Extension {
  enc: Uint8Array | undefined;
  hash: Uint8Array | undefined;
  constructor(readonly path: string, readonly child: Child) {}
}

class Branch {
  enc: Uint8Array | undefined;
  hash: Uint8Array | undefined;
  /** `children` is never changed once the branch exists (writes copy it). */
  constructor(readonly children: readonly (Child | undefined)[], readonly value: Uint8Array | undefined) {}
}

type TrieNode = Leaf | Extension | Branch;

/** A node's database key and value. */
export type NodeWriter = (keyHex: string, value: Uint8Array) => void;
/** The stored RLP of the node with this hash (unprefixed hex), if the database has it. */
export type NodeReader = (keyHex: string) => Uint8Array | undefined;

/** Where a node's stored RLP lies: a buffer and a range of it (one object, filled again for each node). */
export interface NodeSpan {
  buf: Uint8Array;
  start: number;
  end: number;
}

/**
 * Marks the node whose hash is `hash[at…at+32]` to be kept: the first time, fills `span` with where
 * its stored RLP lies and answers true; after, false (NodeStore.mark). Throws when it is missing.
 */
export type NodeMarker = (hash: Uint8Array, at: number, span: NodeSpan) => boolean;

/** The storage root to walk below an account leaf whose value is `buf[start…end]`, if any (a copy or not: read before the walk ends). */
export type InnerRoot = (buf: Uint8Array, start: number, end: number) => Uint8Array | undefined;

/** A write of a batch: the value, or undefined to delete the key. */
export type TrieWrite = readonly [keyHex: string, value: Uint8Array | undefined];

const EMPTY_STRING = Uint8Array.of(0x80);

export class StateTrie {
  /** Decoded nodes by hash; cleared when it reaches `maxNodes` (a bound on memory), after which a node is decoded again from the database when next needed. */
  private readonly nodes = new Map<string, TrieNode>();
  readonly emptyRoot: Uint8Array;

  constructor(
    private readonly keccak: (data: Uint8Array) => Uint8Array,
    private readonly read: NodeReader,
    private readonly write: NodeWriter,
    private readonly maxNodes = 50_000,
  ) {
    this.emptyRoot = keccak(EMPTY_STRING);
  }

  /** The value at `key` in the trie of `root`. */
  get(root: Uint8Array, key: string): Uint8Array | undefined {
    let node = this.rootNode(root);
    let i = 0;
    while (node !== undefined) {
      if (node instanceof Leaf) return key.length - i === node.path.length && key.startsWith(node.path, i) ? node.value : undefined;
      if (node instanceof Extension) {
        if (!key.startsWith(node.path, i)) return undefined;
        i += node.path.length;
        node = this.resolve(node.child);
      } else {
        if (i === key.length) return node.value;
        const child = node.children[nibble(key, i++)];
        node = child === undefined ? undefined : this.resolve(child);
      }
    }
    return undefined;
  }

  /** Applies the writes in order to the trie of `root`; stores every new node and returns the new root. */
  apply(root: Uint8Array, writes: Iterable<TrieWrite>): Uint8Array {
    let node = this.rootNode(root);
    for (const [key, value] of writes) node = value === undefined || value.length === 0 ? this.remove(node, key, 0) : this.insert(node, key, 0, value);
    if (node === undefined) return this.emptyRoot;
    // The root is stored by its hash even when it is short enough to be embedded.
    return this.store(node, this.encode(node));
  }

  /**
   * Marks every stored node of the trie of `root`, and of the tries whose roots `inner` reads from
   * its leaves' values (an account's storage root): what a pruning of the database must keep.
   * `mark` says where a node's stored RLP lies the first time it is marked (false after). Read from
   * the stored RLP, item by item, with no node decoded and no object made per node: a pruning of a
   * million accounts' trie would otherwise make millions of them at once.
   */
  reachable(root: Uint8Array, mark: NodeMarker, inner?: InnerRoot): void {
    if (equalsBytes(root, this.emptyRoot)) return;
    // hashes to visit, each as a buffer and where its 32 bytes start: the root, or inside a node
    // marked before (the walk changes no node); nothing is made per node, for a long chain's trie
    // has millions, and an object per node would weigh on the load's peak just as it ends
    const bufs: Uint8Array[] = [root];
    const ats: number[] = [0];
    const later: Uint8Array[] = [];
    const span: NodeSpan = { buf: root, start: 0, end: 0 };
    const item: RlpItem = { head: 0, start: 0, end: 0, list: false };
    const child = (buf: Uint8Array, head: number): void => {
      rlpItemInto(buf, head, item);
      if (item.list) node(buf, head);
      else if (item.end - item.start === 32) {
        bufs.push(buf);
        ats.push(item.start);
      }
    };
    const node = (buf: Uint8Array, head: number): void => {
      rlpItemInto(buf, head, item);
      const start = item.start;
      const end = item.end;
      let count = 0;
      for (let at = start; at < end; count++) {
        rlpItemInto(buf, at, item);
        at = item.end;
      }
      if (count === 17) {
        for (let i = 0, at = start; i < 16; i++) {
          rlpItemInto(buf, at, item);
          const next = item.end;
          child(buf, at);
          at = next;
        }
      } else if (count === 2) {
        rlpItemInto(buf, start, item);
        // hex-prefix flag: 2 or 3 a leaf, 0 or 1 an extension
        const leaf = buf[item.start]! >> 4 >= 2;
        const valueAt = item.end;
        if (!leaf) child(buf, valueAt);
        else if (inner !== undefined) {
          rlpItemInto(buf, valueAt, item);
          const next = inner(buf, item.start, item.end);
          if (next !== undefined) later.push(next.slice());
        }
      }
    };
    while (bufs.length > 0) {
      if (mark(bufs.pop()!, ats.pop()!, span)) node(span.buf, span.start);
    }
    for (const next of later) this.reachable(next, mark);
  }

  /** Drops every decoded node kept (the database is read again when next needed). */
  forget(): void {
    this.nodes.clear();
  }

  private rootNode(root: Uint8Array): TrieNode | undefined {
    return equalsBytes(root, this.emptyRoot) ? undefined : this.resolve(root);
  }

  private resolve(child: Child): TrieNode {
    if (!(child instanceof Uint8Array)) return child;
    const key = bytesToUnprefixedHex(child);
    let node = this.nodes.get(key);
    if (node === undefined) {
      const enc = this.read(key);
      if (enc === undefined) throw new Error(`missing trie node ${key}`);
      node = decodeNode(RLP.decode(enc) as Decoded);
      node.enc = enc;
      node.hash = child;
      this.remember(key, node);
    }
    return node;
  }

  private remember(key: string, node: TrieNode): void {
    if (this.nodes.size >= this.maxNodes) this.nodes.clear();
    this.nodes.set(key, node);
  }

  private insert(node: TrieNode | undefined, key: string, i: number, value: Uint8Array): TrieNode {
    if (node === undefined) return new Leaf(key.slice(i), value);
    if (node instanceof Branch) {
      if (i === key.length) return new Branch(node.children, value);
      const k = nibble(key, i);
      const children = node.children.slice();
      const child = children[k];
      children[k] = this.insert(child === undefined ? undefined : this.resolve(child), key, i + 1, value);
      return new Branch(children, node.value);
    }
    const path = node.path;
    const common = commonPrefix(path, key, i);
    if (node instanceof Leaf && common === path.length && i + common === key.length) return new Leaf(path, value);
    if (node instanceof Extension && common === path.length) return new Extension(path, this.insert(this.resolve(node.child), key, i + common, value));
    // The paths part at `common`: a branch there holds the old node's rest and the new value.
    const children: (Child | undefined)[] = new Array(16).fill(undefined);
    let branchValue: Uint8Array | undefined;
    if (node instanceof Leaf) {
      if (common === path.length) branchValue = node.value;
      else children[nibble(path, common)] = new Leaf(path.slice(common + 1), node.value);
    } else {
      children[nibble(path, common)] = common + 1 === path.length ? node.child : new Extension(path.slice(common + 1), node.child);
    }
    if (i + common === key.length) branchValue = value;
    else children[nibble(key, i + common)] = new Leaf(key.slice(i + common + 1), value);
    const branch = new Branch(children, branchValue);
    return common > 0 ? new Extension(path.slice(0, common), branch) : branch;
  }

  /** The node without `key`: the same object when the key is not there. */
  private remove(node: TrieNode | undefined, key: string, i: number): TrieNode | undefined {
    if (node === undefined) return undefined;
    if (node instanceof Leaf) return key.length - i === node.path.length && key.startsWith(node.path, i) ? undefined : node;
    if (node instanceof Extension) {
      if (!key.startsWith(node.path, i)) return node;
      const child = this.resolve(node.child);
      const left = this.remove(child, key, i + node.path.length);
      return left === child ? node : this.join(node.path, left);
    }
    let children = node.children;
    let value = node.value;
    if (i === key.length) {
      if (value === undefined) return node;
      value = undefined;
    } else {
      const k = nibble(key, i);
      const slot = children[k];
      if (slot === undefined) return node;
      const child = this.resolve(slot);
      const left = this.remove(child, key, i + 1);
      if (left === child) return node;
      children = children.slice();
      (children as (Child | undefined)[])[k] = left;
    }
    let count = 0;
    let only = -1;
    for (let k = 0; k < 16; k++) {
      if (children[k] !== undefined) {
        count++;
        only = k;
      }
    }
    if (count + (value === undefined ? 0 : 1) >= 2) return new Branch(children, value);
    if (count === 0) return value === undefined ? undefined : new Leaf('', value);
    // One child left and no value: the branch folds into its child's path.
    return this.join(only.toString(16), this.resolve(children[only]!));
  }

  /** `node` under the nibbles `prefix` (an extension's rest after a removal). */
  private join(prefix: string, node: TrieNode | undefined): TrieNode | undefined {
    if (node === undefined) return undefined;
    if (node instanceof Leaf) return new Leaf(prefix + node.path, node.value);
    if (node instanceof Extension) return new Extension(prefix + node.path, node.child);
    return new Extension(prefix, node);
  }

  /** The node's RLP; every node it holds of 32 bytes or more is stored by its hash on the way. */
  private encode(node: TrieNode): Uint8Array {
    if (node.enc !== undefined) return node.enc;
    let enc: Uint8Array;
    if (node instanceof Leaf) enc = rlpList([rlpString(hexPrefix(node.path, true)), rlpString(node.value)]);
    else if (node instanceof Extension) enc = rlpList([rlpString(hexPrefix(node.path, false)), this.reference(node.child)]);
    else {
      const items: Uint8Array[] = new Array(17);
      for (let k = 0; k < 16; k++) {
        const child = node.children[k];
        items[k] = child === undefined ? EMPTY_STRING : this.reference(child);
      }
      items[16] = node.value === undefined ? EMPTY_STRING : rlpString(node.value);
      enc = rlpList(items);
    }
    node.enc = enc;
    return enc;
  }

  /** A child as its parent's RLP holds it: embedded when under 32 bytes, else the hash, stored. */
  private reference(child: Child): Uint8Array {
    if (child instanceof Uint8Array) return hashItem(child);
    const enc = this.encode(child);
    return enc.length < 32 ? enc : hashItem(this.store(child, enc));
  }

  /** The node's hash; a node hashed here for the first time is written to the database. */
  private store(node: TrieNode, enc: Uint8Array): Uint8Array {
    let hash = node.hash;
    if (hash === undefined) {
      hash = this.keccak(enc);
      node.hash = hash;
      const key = bytesToUnprefixedHex(hash);
      this.write(key, enc);
      this.remember(key, node);
    }
    return hash;
  }
}


type Decoded = Uint8Array | Decoded[];

function decodeNode(item: Decoded): TrieNode {
  if (!Array.isArray(item)) throw new Error('trie node is not a list');
  if (item.length === 17) {
    const children: (Child | undefined)[] = new Array(16);
    for (let k = 0; k < 16; k++) children[k] = decodeChild(item[k]!);
    const value = item[16] as Uint8Array;
    return new Branch(children, value.length === 0 ? undefined : value);
  }
  if (item.length !== 2) throw new Error(`trie node has ${item.length} items`);
  const [encodedPath, rest] = item as [Uint8Array, Decoded];
  const hex = bytesToUnprefixedHex(encodedPath);
  const flag = hex.charCodeAt(0) - 48;
  const path = hex.slice(flag & 1 ? 1 : 2);
  if (flag & 2) return new Leaf(path, rest as Uint8Array);
  const child = decodeChild(rest);
  if (child === undefined) throw new Error('extension without a child');
  return new Extension(path, child);
}

function decodeChild(item: Decoded): Child | undefined {
  if (Array.isArray(item)) return decodeNode(item);
  if (item.length === 0) return undefined;
  if (item.length !== 32) throw new Error(`trie reference of ${item.length} bytes`);
  return item;
}

function nibble(path: string, i: number): number {
  const c = path.charCodeAt(i);
  return c <= 57 ? c - 48 : c - 87;
}

/** How many nibbles `path` shares with `key` from `i`. */
function commonPrefix(path: string, key: string, i: number): number {
  const max = Math.min(path.length, key.length - i);
  let n = 0;
  while (n < max && path.charCodeAt(n) === key.charCodeAt(i + n)) n++;
  return n;
}

/** Hex-prefix encoding of a path (Yellow Paper appendix C). */
function hexPrefix(path: string, leaf: boolean): Uint8Array {
  const flag = (leaf ? 2 : 0) + (path.length & 1);
  return unprefixedHexToBytes(path.length & 1 ? flag.toString(16) + path : flag.toString(16) + '0' + path);
}

function hashItem(hash: Uint8Array): Uint8Array {
  const out = new Uint8Array(33);
  out[0] = 0xa0;
  out.set(hash, 1);
  return out;
}

function rlpString(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 1 && bytes[0]! < 0x80) return bytes;
  return withHeader(0x80, bytes.length, [bytes]);
}

function rlpList(items: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const item of items) length += item.length;
  return withHeader(0xc0, length, items);
}

function withHeader(base: number, length: number, parts: readonly Uint8Array[]): Uint8Array {
  let lengthBytes = 0;
  if (length > 55) for (let l = length; l > 0; l = Math.floor(l / 256)) lengthBytes++;
  const out = new Uint8Array(1 + lengthBytes + length);
  if (length <= 55) out[0] = base + length;
  else {
    out[0] = base + 55 + lengthBytes;
    for (let l = length, j = lengthBytes; j > 0; j--, l = Math.floor(l / 256)) out[j] = l & 0xff;
  }
  let at = 1 + lengthBytes;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
