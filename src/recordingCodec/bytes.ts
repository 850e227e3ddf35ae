// The primitives of the kept-recording format (encodeRecording.ts): unsigned LEB128 integers,
// bigints as a small integer or their big-endian bytes, length-prefixed bytes and UTF-8 text.
// Plain Uint8Array and DataView only, so Bun, Node and Deno read what any of them wrote.
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

/** Integers below this go as a varint; larger bigints as their bytes. */
const SMALL = 2 ** 52;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;

  reset(): void {
    this.length = 0;
  }

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.length));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.length++] = v;
  }

  /** A non-negative integer below 2^53 (counts, indexes, lengths). */
  uint(v: number): void {
    this.room(8);
    const buf = this.buf;
    let at = this.length;
    while (v >= 0x80000000) {
      buf[at++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    while (v >= 128) {
      buf[at++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[at++] = v;
    this.length = at;
  }

  /** Any number: an integer in [0, 2^52) as a varint, anything else as its float64. */
  num(v: number): void {
    if (Number.isInteger(v) && v >= 0 && v < SMALL) {
      this.uint(v * 2);
      return;
    }
    this.uint(1);
    this.room(8);
    this.view.setFloat64(this.length, v);
    this.length += 8;
  }

  /** A non-negative bigint. */
  big(v: bigint): void {
    // one conversion: a bigint of 2^52 or more never rounds to a smaller number
    const small = Number(v);
    if (small < SMALL) {
      if (small < 0) throw new RangeError(`recording codec: negative value ${v}`);
      this.uint(small * 2);
      return;
    }
    const bytes = bigIntToUnpaddedBytes(v);
    this.uint(bytes.length * 2 + 1);
    this.raw(bytes);
  }

  /** Bytes of a length known to the reader. */
  raw(bytes: Uint8Array): void {
    const n = bytes.length;
    this.room(n);
    // a call into native code costs more than copying a word or two
    if (n <= 64) for (let i = 0; i < n; i++) this.buf[this.length + i] = bytes[i]!;
    else this.buf.set(bytes, this.length);
    this.length += n;
  }

  bytes(bytes: Uint8Array): void {
    this.uint(bytes.length);
    this.raw(bytes);
  }

  text(s: string): void {
    this.bytes(utf8.encode(s));
  }

  /** What was written, as bytes of their own. */
  take(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** What was written, as a view valid until the next write. */
  written(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

export class ByteReader {
  private at = 0;
  private readonly view: DataView;

  private readonly buf: Uint8Array;

  constructor(bytes: Uint8Array) {
    // a plain view (a Buffer's subarray would be a Buffer)
    this.buf = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.at >= this.buf.length;
  }

  private need(n: number): void {
    if (this.at + n > this.buf.length) throw new RangeError('recording codec: truncated');
  }

  u8(): number {
    this.need(1);
    return this.buf[this.at++]!;
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.u8();
      v += (b & 127) * scale;
      if (b < 128) return v;
      scale *= 128;
    }
  }

  num(): number {
    const v = this.uint();
    if (v % 2 === 0) return v / 2;
    this.need(8);
    const f = this.view.getFloat64(this.at);
    this.at += 8;
    return f;
  }

  big(): bigint {
    const v = this.uint();
    if (v % 2 === 0) return BigInt(v / 2);
    return bytesToBigInt(this.raw((v - 1) / 2));
  }

  /** A view of the next `n` bytes (the reader's buffer is kept, never changed). */
  raw(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  bytes(): Uint8Array {
    return this.raw(this.uint());
  }

  text(): string {
    return fromUtf8.decode(this.bytes());
  }
}
