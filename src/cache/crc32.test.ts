// The portable CRC-32 gives node:zlib's values (the snapshot's checksum is the same whichever runtime wrote it).
import { expect, test } from 'bun:test';
import * as zlib from 'node:zlib';
import { crc32, crc32Portable } from './crc32.ts';

test('the portable CRC-32 is zlib\'s, whole and continued piece by piece', () => {
  const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32!;
  expect(crc32Portable(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  let seed = 1;
  for (const size of [0, 1, 7, 255, 4096, 100_003]) {
    const data = new Uint8Array(size).map(() => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
    expect(crc32Portable(data)).toBe(native(data) >>> 0);
    expect(crc32(data)).toBe(native(data) >>> 0);
    const half = size >> 1;
    expect(crc32Portable(data.subarray(half), crc32Portable(data.subarray(0, half)))).toBe(native(data) >>> 0);
  }
});
