// CRC-32 (the zlib/PNG/gzip one) of the replay snapshot: node:zlib's crc32 where the runtime has it
// (Bun, Node 20.15+), this table-driven one elsewhere (the same values). The snapshot's checksum
// finds a damaged or truncated file, not a forged one, and runs over the whole file at every start:
// a CRC is enough for the first and much cheaper than a cryptographic hash for the second.
import * as zlib from 'node:zlib';

type Crc32 = (data: Uint8Array, value?: number) => number;

const native = (zlib as { crc32?: Crc32 }).crc32;

let table: Int32Array | undefined;

/** The table-driven CRC-32, continuing from `value` (the CRC of what came before; 0 at first). */
export function crc32Portable(data: Uint8Array, value = 0): number {
  if (table === undefined) {
    table = new Int32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c;
    }
  }
  let c = ~value;
  for (let i = 0; i < data.length; i++) c = table[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** CRC-32 of `data`, continuing from `value`. */
export function crc32(data: Uint8Array, value = 0): number {
  return native !== undefined ? native(data, value) >>> 0 : crc32Portable(data, value);
}
