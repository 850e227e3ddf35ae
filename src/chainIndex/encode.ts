// The chain index as bytes, for the replay snapshot (cache/snapshot.ts), little-endian:
//
//   u64 first block  u32 blocks  u32 transactions per block…
//   u32 senders  20-byte sender…  u32 sender of each transaction…  u64 nonce of each transaction…
//   u32 addresses  (20-byte address  u32 n  u32 transaction id × n)…
//   u32 creations  (20-byte address  u32 transaction id  20-byte creator)…
//
// Decoding is left until the index is first asked something (a start from a snapshot reads none).
import { ChainIndex, type ChainIndexData, type Creation } from './chainIndex.ts';

const hexOf = (buf: Buffer, at: number): string => `0x${buf.toString('hex', at, at + 20)}`;

export function encodeChainIndex(index: ChainIndex): Buffer {
  const d = index.data;
  const txs = d.txSender.length;
  let size = 8 + 4 + 4 * d.blockTxCounts.length + 4 + 20 * d.senders.length + 12 * txs + 4 + 4;
  for (const ids of d.postings.values()) size += 24 + 4 * ids.length;
  size += 44 * d.creators.size;
  const out = Buffer.alloc(size);
  let at = out.writeBigUInt64LE(d.firstBlock, 0);
  at = out.writeUInt32LE(d.blockTxCounts.length, at);
  for (const n of d.blockTxCounts) at = out.writeUInt32LE(n, at);
  at = out.writeUInt32LE(d.senders.length, at);
  for (const s of d.senders) at += out.write(s.slice(2), at, 20, 'hex');
  for (const s of d.txSender) at = out.writeUInt32LE(s, at);
  for (const n of d.txNonce) at = out.writeBigUInt64LE(n, at);
  at = out.writeUInt32LE(d.postings.size, at);
  for (const [address, ids] of d.postings) {
    at += out.write(address.slice(2), at, 20, 'hex');
    at = out.writeUInt32LE(ids.length, at);
    for (const id of ids) at = out.writeUInt32LE(id, at);
  }
  at = out.writeUInt32LE(d.creators.size, at);
  for (const [address, { tx, creator }] of d.creators) {
    at += out.write(address.slice(2), at, 20, 'hex');
    at = out.writeUInt32LE(tx, at);
    at += out.write(creator.slice(2), at, 20, 'hex');
  }
  return out;
}

/** The index held in `bytes` (which the snapshot's checksum vouched for), decoded when first used. */
export function decodeChainIndex(bytes: Uint8Array): ChainIndex {
  return new ChainIndex(() => decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
}

function decode(buf: Buffer): ChainIndexData {
  const firstBlock = buf.readBigUInt64LE(0);
  let at = 8;
  const blocks = buf.readUInt32LE(at);
  at += 4;
  const blockTxCounts: number[] = [];
  let txs = 0;
  for (let i = 0; i < blocks; i++, at += 4) txs += blockTxCounts[blockTxCounts.push(buf.readUInt32LE(at)) - 1]!;
  const senderCount = buf.readUInt32LE(at);
  at += 4;
  const senders: string[] = [];
  for (let i = 0; i < senderCount; i++, at += 20) senders.push(hexOf(buf, at));
  const txSender = new Uint32Array(txs);
  for (let i = 0; i < txs; i++, at += 4) txSender[i] = buf.readUInt32LE(at);
  const txNonce = new BigUint64Array(txs);
  for (let i = 0; i < txs; i++, at += 8) txNonce[i] = buf.readBigUInt64LE(at);
  const postings = new Map<string, Uint32Array>();
  const addresses = buf.readUInt32LE(at);
  at += 4;
  for (let i = 0; i < addresses; i++) {
    const address = hexOf(buf, at);
    const n = buf.readUInt32LE(at + 20);
    at += 24;
    const ids = new Uint32Array(n);
    for (let j = 0; j < n; j++, at += 4) ids[j] = buf.readUInt32LE(at);
    postings.set(address, ids);
  }
  const creators = new Map<string, Creation>();
  const creations = buf.readUInt32LE(at);
  at += 4;
  for (let i = 0; i < creations; i++, at += 44) creators.set(hexOf(buf, at), { tx: buf.readUInt32LE(at + 20), creator: hexOf(buf, at + 24) });
  if (at !== buf.length) throw new Error(`chain index: ${buf.length - at} trailing bytes`);
  return { firstBlock, blockTxCounts, postings, creators, senders, txSender, txNonce };
}
