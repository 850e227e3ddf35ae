// The tries ethereumjs builds and throws away inside runBlock: a block's receipt trie (and, when it
// generates a header, its transaction trie) is a fresh MerklePatriciaTrie given one put per
// transaction, each re-walking and re-hashing its path, and then asked for its root once. Those
// tries are made inside runBlock, out of our reach, so this patches the class: on a plain trie (no
// key hashing, prefix, root persistence or pruning, an in-memory database) a put is only queued,
// and the queue is written as one StateTrie batch the moment anything reads the root, which every
// other method of the trie does first (get, del, proofs, checkpoints, walks). The nodes written are
// the ones the trie would have written, in its own database: the trie stays a complete ethereumjs
// trie, only faster to fill. Setting a root drops the queued puts, as they were made on the old one.
import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToUnprefixedHex, ValueEncoding } from '@ethereumjs/util';
import { StateTrie, type TrieWrite } from './stateTrie.ts';

interface TrieInternals {
  _root: Uint8Array;
  readonly _opts: { readonly useKeyHashing?: boolean; readonly keyPrefix?: Uint8Array; readonly useRootPersistence?: boolean; readonly useNodePruning?: boolean };
  readonly _db: { readonly valueEncoding: string; readonly db: { readonly _database?: Map<string, string | Uint8Array> }; readonly checkpoints: readonly unknown[] };
  hash(data: Uint8Array): Uint8Array;
}

const queues = new WeakMap<MerklePatriciaTrie, TrieWrite[]>();
let installed = false;

/** Whether puts on this trie may wait for its root. */
function plain(trie: TrieInternals): boolean {
  const o = trie._opts;
  return o.useKeyHashing !== true && o.keyPrefix === undefined && o.useRootPersistence !== true && o.useNodePruning !== true && trie._db.valueEncoding === ValueEncoding.Bytes && trie._db.db._database instanceof Map;
}

/** Installs the queueing put (once per process). */
export function batchScratchTries(): void {
  if (installed) return;
  installed = true;
  const proto = MerklePatriciaTrie.prototype;
  const put = proto.put;
  const root = proto.root;

  proto.put = async function (this: MerklePatriciaTrie, key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    const self = this as unknown as TrieInternals;
    if (!plain(self) || self._db.checkpoints.length > 0) return put.call(this, key, value, skipKeyTransform);
    let queue = queues.get(this);
    if (queue === undefined) queues.set(this, (queue = []));
    queue.push([bytesToUnprefixedHex(key), value === null || value.length === 0 ? undefined : value]);
  };

  proto.root = function (this: MerklePatriciaTrie, value?: Uint8Array | null): Uint8Array {
    const queue = queues.get(this);
    if (queue !== undefined) {
      queues.delete(this);
      if (value === undefined) {
        const self = this as unknown as TrieInternals;
        const database = self._db.db._database!;
        const tries = new StateTrie(
          (data) => self.hash(data),
          (key) => {
            const stored = database.get(key);
            return typeof stored === 'string' ? undefined : stored;
          },
          (key, node) => database.set(key, node),
        );
        self._root = tries.apply(self._root, queue);
      }
    }
    return root.call(this, value);
  };
}
