// patches/@ethereumjs+util+10.1.3.patch (applied by `npm ci` through patch-package): setLengthLeft
// and setLengthRight, which every SLOAD, SSTORE and storage read of the EVM calls (a slot key of a
// few bytes padded to 32), padded by spreading both arrays into a new array, a tenth of a warm
// eth_call; patched, they copy into a zero-filled array. The answers are the same; the installed
// module (ESM and CommonJS builds) must be the patched one. (bytesToBigInt's table of the 65,536
// BigInts below 2^16, made when the module loads, is some 15 ms of every start; made as they are
// asked for instead, a first load's heavy block replayed some 12 % slower, the engine's collector
// running more often on the smaller heap, so it is left as it is.)
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { bytesToBigInt, setLengthLeft, setLengthRight } from '@ethereumjs/util';

test('the installed @ethereumjs/util carries the patch, in both builds', () => {
  const require = createRequire(import.meta.url);
  const cjs = require.resolve('@ethereumjs/util');
  for (const path of [cjs.replace(/index\.js$/, 'bytes.js'), cjs.replace(/cjs[/\\]index\.js$/, 'esm/bytes.js')]) {
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('new Uint8Array([...msg');
    expect(text).toContain('padded.set(msg, right ? 0 : length - msg.length)');
  }
});

test('bytesToBigInt gives what it gave, for one and two bytes (cached) and longer, asked twice', () => {
  for (let round = 0; round < 2; round++) {
    for (let n = 0; n < 256; n++) expect(bytesToBigInt(Uint8Array.of(n))).toBe(BigInt(n));
    for (const n of [0, 1, 255, 256, 4660, 65535]) expect(bytesToBigInt(Uint8Array.of(n >> 8, n & 255))).toBe(BigInt(n));
    expect(bytesToBigInt(Uint8Array.of(1, 0, 0))).toBe(65536n);
    expect(bytesToBigInt(new Uint8Array())).toBe(0n);
    expect(bytesToBigInt(Uint8Array.of(0x34, 0x12), true)).toBe(0x1234n);
  }
});

test('padding gives what it gave: zeros on the side asked, a new array, the input when long enough', () => {
  const msg = Uint8Array.of(1, 2, 3);
  expect([...setLengthLeft(msg, 6)]).toEqual([0, 0, 0, 1, 2, 3]);
  expect([...setLengthRight(msg, 6)]).toEqual([1, 2, 3, 0, 0, 0]);
  expect([...setLengthLeft(new Uint8Array(), 2)]).toEqual([0, 0]);
  const padded = setLengthLeft(msg, 4);
  padded[3] = 9;
  expect(msg[2]).toBe(3);
  expect(setLengthLeft(msg, 3)).toBe(msg);
  expect([...setLengthLeft(Uint8Array.of(1, 2, 3, 4), 2, { allowTruncate: true })]).toEqual([3, 4]);
  expect(() => setLengthLeft(Uint8Array.of(1, 2, 3, 4), 2)).toThrow('exceeds target length');
});
