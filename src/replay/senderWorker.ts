// The sender worker (replay/senders.ts). For each transaction of the chain, in order, that the replay
// has not taken already, it computes from the transaction's bytes as the block holds them what the
// replay would otherwise compute on the EVM's thread: the hash (the keccak of those bytes), the
// signed message (the fields but the signature, with the chain id of an EIP-155 v) and from it,
// with libsecp256k1 (secp256k1.ts; ethereumjs's own ecrecover where that cannot load), the
// sender's public key and address; and leaves them in the shared results. Bytes that are not canonical RLP get nothing (ethereumjs's hash re-encodes the
// fields), nor does a signature it cannot recover: the replay then computes, or refuses, itself.
import { RLP } from '@ethereumjs/rlp';
import { bigIntToUnpaddedBytes, bytesToBigInt, concatBytes, ecrecover, equalsBytes } from '@ethereumjs/util';
import { loadKeccak } from './keccak.ts';
import { loadRecover, type Recover } from './secp256k1.ts';
import { ADDRESS_AT, DONE, FREE, HAS_HASH, HAS_KEY, HASH_AT, KEY_AT, RESULT_BYTES, type SenderJob, WORKER_DONE, WORKING } from './senders.ts';

declare const self: { onmessage: ((event: MessageEvent<SenderJob>) => void) | null; postMessage(message: unknown): void };

const EMPTY = new Uint8Array();

/** Writes what can be computed of one transaction at `at` in `out`: its flags, key, address and hash. */
function compute(raw: Uint8Array, keccak: (data: Uint8Array) => Uint8Array, recover: Recover | undefined, out: Uint8Array, at: number): void {
  const typed = raw[0]! <= 0x7f;
  const body = typed ? raw.subarray(1) : raw;
  const fields = RLP.decode(body) as Uint8Array[];
  if (!Array.isArray(fields) || fields.length < 4 || !equalsBytes(RLP.encode(fields), body)) return;
  out.set(keccak(raw), at + HASH_AT);
  out[at] = HAS_HASH;
  const [v, r, s] = fields.slice(-3) as [Uint8Array, Uint8Array, Uint8Array];
  if (!(v instanceof Uint8Array && r instanceof Uint8Array && s instanceof Uint8Array)) return;
  const vNumber = bytesToBigInt(v);
  let message: Uint8Array;
  let chainId: bigint | undefined;
  if (typed) message = concatBytes(raw.subarray(0, 1), RLP.encode(fields.slice(0, -3)));
  else if (fields.length !== 9) return;
  else if (vNumber === 27n || vNumber === 28n) message = RLP.encode(fields.slice(0, 6));
  else if (vNumber >= 35n) {
    chainId = (vNumber - 35n) / 2n;
    message = RLP.encode([...fields.slice(0, 6), bigIntToUnpaddedBytes(chainId), EMPTY, EMPTY]);
  } else return;
  const hash = keccak(message);
  let key: Uint8Array | null;
  if (recover === undefined) key = ecrecover(hash, vNumber, r, s, chainId);
  else {
    // the recovery id as ethereumjs's calculateSigRecovery derives it from v
    const id = chainId !== undefined ? vNumber - (chainId * 2n + 35n) : typed ? vNumber : vNumber - 27n;
    key = recover(hash, r, s, Number(id));
  }
  if (key === null) return;
  out.set(key, at + KEY_AT);
  out.set(keccak(key).subarray(12), at + ADDRESS_AT);
  out[at] = HAS_HASH | HAS_KEY;
}

/** Each block's transactions as bytes; undefined where the RLP does not decode to as many as the replay has. */
function transactions(block: SenderJob['blocks'][number]): readonly Uint8Array[] | undefined {
  if (block.txs !== undefined) return block.txs;
  try {
    // a block is [header, transactions, …]; a typed transaction is a byte string, a legacy one a list
    const items = (RLP.decode(block.rlp!) as unknown[])[1] as (Uint8Array | Uint8Array[])[];
    const raws = items.map((item) => (item instanceof Uint8Array ? item : RLP.encode(item)));
    return raws.length === block.count ? raws : undefined;
  } catch {
    return undefined;
  }
}

self.onmessage = async (event) => {
  const keccak = await loadKeccak();
  const recover = loadRecover();
  const state = new Int32Array(event.data.state);
  const out = new Uint8Array(event.data.results);
  const blocks = event.data.blocks as (SenderJob['blocks'][number] | undefined)[];
  let index = 0;
  let uncollected = 0;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    // the block's bytes go once read: a long chain's would otherwise all stay until the last
    blocks[b] = undefined;
    const raws = transactions(block);
    for (let j = 0; j < block.count; j++, index++) {
      if (Atomics.compareExchange(state, index, FREE, WORKING) !== FREE) continue; // the replay took it
      try {
        if (raws !== undefined) compute(raws[j]!, keccak, recover, out, index * RESULT_BYTES);
      } catch {
        // nothing for this one: the replay computes (or refuses) it itself
      }
      Atomics.store(state, index, DONE);
      Atomics.notify(state, index);
    }
    uncollected += block.count;
    if (uncollected >= COLLECT_EVERY) {
      uncollected = 0;
      collect();
    }
  }
  // done, perhaps long before the replay: the pool ends this worker (its results are shared)
  self.postMessage(WORKER_DONE);
};

function collect(): void {
  (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
}

/**
 * Transactions the worker computes between two full collections of its heap (Bun). The worker runs
 * ahead of the replay through the whole chain, and JavaScriptCore lets its garbage grow to more than
 * the replay's own peak on a long chain unless it is collected this often.
 */
const COLLECT_EVERY = 16_384;

