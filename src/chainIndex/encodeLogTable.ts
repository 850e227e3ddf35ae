// The log table as bytes, for the replay snapshot (cache/snapshot.ts), little-endian:
//
//   u64 first block  u32 blocks  u32 logs  u32 topics  u32 addresses  u32 topic values
//   u32 first log of each block, then the logs (blocks + 1)   u32 first topic of each block, then the topics (blocks + 1)
//   u32 address of each log  u32 transaction of each log  u32 data bytes of each log
//   u32 topic…  20-byte address (ascending)…  32-byte topic value (ascending)…  u8 topic count of each log
//
// Each array is copied in and out whole (a memory copy, not a number at a time), out when the table
// is first used: a start from a snapshot reads none of it.
import { ADDRESS_BYTES, LogTable, type LogTableData, TOPIC_BYTES } from './logTable.ts';

const HEAD = 8 + 5 * 4;
/** Whether this machine's typed arrays are little-endian, as the file is (every platform Bun, Node and Deno run on). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

export function encodeLogTable(table: LogTable): Buffer {
  const d = table.data;
  const blocks = d.blockLogs.length - 1;
  const logs = d.address.length;
  const out = Buffer.alloc(HEAD + 8 * (blocks + 1) + 12 * logs + 4 * d.topics.length + d.addresses.length + d.topicValues.length + logs);
  let at = out.writeBigUInt64LE(d.firstBlock, 0);
  for (const n of [blocks, logs, d.topics.length, d.addresses.length / ADDRESS_BYTES, d.topicValues.length / TOPIC_BYTES]) at = out.writeUInt32LE(n, at);
  for (const list of [d.blockLogs, d.blockTopics, d.address, d.tx, d.dataBytes, d.topics]) {
    if (LITTLE_ENDIAN) out.set(new Uint8Array(list.buffer, list.byteOffset, list.byteLength), at);
    else list.forEach((n, i) => out.writeUInt32LE(n, at + 4 * i));
    at += list.byteLength;
  }
  for (const bytes of [d.addresses, d.topicValues, d.topicCount]) {
    out.set(bytes, at);
    at += bytes.length;
  }
  return out;
}

/** The table held in `bytes` (which the snapshot's checksum vouched for), decoded when first used. */
export function decodeLogTable(bytes: Uint8Array): LogTable {
  return new LogTable(() => decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
}

function decode(buf: Buffer): LogTableData {
  const firstBlock = buf.readBigUInt64LE(0);
  const [blocks, logs, topics, addresses, topicValues] = [0, 1, 2, 3, 4].map((i) => buf.readUInt32LE(8 + 4 * i)) as [number, number, number, number, number];
  let at = HEAD;
  const u32s = (n: number): Uint32Array => {
    const list = new Uint32Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(list.buffer).set(buf.subarray(at, at + 4 * n));
    else for (let i = 0; i < n; i++) list[i] = buf.readUInt32LE(at + 4 * i);
    at += 4 * n;
    return list;
  };
  const u8s = (n: number): Uint8Array => {
    const list = new Uint8Array(n);
    list.set(buf.subarray(at, at + n));
    at += n;
    return list;
  };
  const data: LogTableData = {
    firstBlock,
    blockLogs: u32s(blocks + 1), blockTopics: u32s(blocks + 1),
    address: u32s(logs), tx: u32s(logs), dataBytes: u32s(logs), topics: u32s(topics),
    addresses: u8s(addresses * ADDRESS_BYTES), topicValues: u8s(topicValues * TOPIC_BYTES), topicCount: u8s(logs),
  };
  if (at !== buf.length) throw new Error(`log table: ${buf.length - at} bytes more or fewer than it says`);
  return data;
}
