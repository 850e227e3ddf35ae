// The primitives of the kept-recording format (encodeRecording.ts): unsigned LEB128 integers,
// bigints as a small integer or their big-endian bytes, length-prefixed bytes and UTF-8 text.
// Plain Uint8Array and DataView only, so Bun, Node and Deno read what any of them wrote.

/** Integers below this go as a varint; larger bigints as their bytes. */
const SMALL = 2 ** 52;
const SMALL_BIG = BigInt(SMALL);

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
    while (v >= 128) {
      this.buf[this.length++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.length++] = v;
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
    if (v < 0n) throw new RangeError(`recording codec: negative value ${v}`);
    if (v < SMALL_BIG) {
      this.uint(Number(v) * 2);
      return;
    }
    let hex = v.toString(16);
    if (hex.length % 2 === 1) hex = `0${hex}`;
    const n = hex.length / 2;
    this.uint(n * 2 + 1);
    this.room(n);
    for (let i = 0; i < n; i++) this.buf[this.length++] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }

  /** Bytes of a length known to the reader. */
  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
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
    const n = (v - 1) / 2;
    this.need(n);
    let hex = '0x';
    for (let i = 0; i < n; i++) hex += this.buf[this.at + i]!.toString(16).padStart(2, '0');
    this.at += n;
    return BigInt(hex);
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
