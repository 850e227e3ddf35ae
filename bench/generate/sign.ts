// Signing the generated chain's transactions (bench/generate.ts): EIP-1559 transactions encoded
// here and signed with libsecp256k1 (tiny-secp256k1's WebAssembly), the most expensive step of the
// generator (some 150 µs a transaction, against a few µs for everything else a transaction costs).
// RFC 6979 nonces and low s, as ethereumjs's tx.sign with noble: the same bytes. A transaction's
// fields depend on its index alone, so ranges are signed in worker threads (signWorker.ts) while
// the main thread runs the state; a range comes back as one buffer and the offsets into it.
import { signRecoverable } from 'tiny-secp256k1';
import { keccakNow } from '../../src/replay/keccak.ts';
import { CHAIN_ID, MAX_FEE, PRIORITY_FEE, senderKey, SENDERS, txFields } from './spec.ts';
import { indexBytes, rlpBytes, rlpList } from './trie.ts';

const EMPTY_LIST = Uint8Array.of(0xc0);

function unpadded(bytes: Uint8Array): Uint8Array {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

/** The signed type-2 transaction `n`: 0x02 ‖ rlp([chainId, nonce, …, accessList, yParity, r, s]). */
export function signTransaction(n: number, keys: readonly Uint8Array[]): Uint8Array {
  const tx = txFields(n);
  const fields = [CHAIN_ID, tx.nonce, PRIORITY_FEE, MAX_FEE, tx.gasLimit].map((v) => rlpBytes(indexBytes(v)));
  fields.push(rlpBytes(tx.to), rlpBytes(indexBytes(tx.value)), rlpBytes(tx.data), EMPTY_LIST);
  const unsigned = rlpList(fields);
  const payload = new Uint8Array(1 + unsigned.length);
  payload[0] = 2;
  payload.set(unsigned, 1);
  const { signature, recoveryId } = signRecoverable(keccakNow(payload), keys[tx.sender]!);
  fields.push(rlpBytes(indexBytes(recoveryId)), rlpBytes(unpadded(signature.subarray(0, 32))), rlpBytes(unpadded(signature.subarray(32))));
  const signed = rlpList(fields);
  const out = new Uint8Array(1 + signed.length);
  out[0] = 2;
  out.set(signed, 1);
  return out;
}

export function senderKeys(): Uint8Array[] {
  return Array.from({ length: SENDERS }, (_, i) => senderKey(i));
}

/** Transactions `from` … `from + count - 1`, signed and packed: all bytes, and where each ends. */
export interface SignedRange {
  readonly from: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

export function signRange(from: number, count: number, keys: readonly Uint8Array[]): SignedRange {
  const txs = Array.from({ length: count }, (_, i) => signTransaction(from + i, keys));
  const ends = new Uint32Array(count);
  let length = 0;
  txs.forEach((tx, i) => (ends[i] = length += tx.length));
  const bytes = new Uint8Array(length);
  txs.forEach((tx, i) => bytes.set(tx, i === 0 ? 0 : ends[i - 1]!));
  return { from, bytes, ends };
}

export function unpack(range: SignedRange): Uint8Array[] {
  return Array.from(range.ends, (end, i) => range.bytes.subarray(i === 0 ? 0 : range.ends[i - 1]!, end));
}
