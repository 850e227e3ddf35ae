// Where an RLP item lies in its bytes, read from its prefix alone: a block's header or its
// transactions' count (blocks.ts, storedBlock.ts) and a trie node's children (stateTrie.ts pruning),
// found with nothing decoded. rlpItemInto is the same without an object made: the pruning's walk
// reads every node of a state trie, some millions at a long chain's end.

/** The RLP item at `head`: where its payload starts and ends, and whether it is a list. Throws past the bytes' end. */
export function rlpItem(bytes: Uint8Array, head: number): { readonly head: number; readonly start: number; readonly end: number; readonly list: boolean } {
  const item: RlpItem = { head, start: 0, end: 0, list: false };
  rlpItemInto(bytes, head, item);
  return item;
}

/** Where rlpItem puts its answer without making one (a caller's object, filled again for each item). */
export interface RlpItem {
  head: number;
  start: number;
  end: number;
  list: boolean;
}

/** rlpItem into `into`. Throws past the bytes' end. */
export function rlpItemInto(bytes: Uint8Array, head: number, into: RlpItem): void {
  const first = bytes[head];
  if (first === undefined) throw new Error('RLP is shorter than its lists say');
  into.head = head;
  if (first < 0x80) {
    into.start = head;
    into.end = head + 1;
    into.list = false;
    return;
  }
  const list = first >= 0xc0;
  into.list = list;
  if (list ? first <= 0xf7 : first <= 0xb7) {
    into.start = head + 1;
    into.end = head + 1 + first - (list ? 0xc0 : 0x80);
    return;
  }
  const lengthBytes = first - (list ? 0xf7 : 0xb7);
  let length = 0;
  for (let i = 1; i <= lengthBytes; i++) length = length * 256 + bytes[head + i]!;
  into.start = head + 1 + lengthBytes;
  into.end = into.start + length;
}
