// go-ethereum accounts/abi/abi.go UnpackRevert: the text of an Error(string) or Panic(uint256)
// revert payload, or undefined when the payload is neither or does not decode.

import { INVALID_BYTE_CODE } from '../../encoding/json.ts';

const ERROR_SELECTOR = 0x08c379a0;
const PANIC_SELECTOR = 0x4e487b71;

// accounts/abi/abi.go panicReasons
const PANIC_REASONS: ReadonlyMap<bigint, string> = new Map([
  [0x00n, 'generic panic'],
  [0x01n, 'assert(false)'],
  [0x11n, 'arithmetic underflow or overflow'],
  [0x12n, 'division or modulo by zero'],
  [0x21n, 'enum overflow'],
  [0x22n, 'invalid encoded storage byte array accessed'],
  [0x31n, 'out-of-bounds array access; popping on an empty array'],
  [0x32n, 'out-of-bounds access of an array or bytesN'],
  [0x41n, 'out of memory'],
  [0x51n, 'uninitialized function'],
]);

function word(data: Uint8Array, at: number): bigint {
  let v = 0n;
  for (let i = at; i < at + 32; i++) v = (v << 8n) | BigInt(data[i]!);
  return v;
}

/** Decodes the ABI `string` at the head of `args` the way accounts/abi/unpack.go does, or undefined. */
function unpackString(args: Uint8Array): Uint8Array | undefined {
  if (args.length < 32) return undefined; // toGoType: length insufficient (also the empty-data case)
  const offsetEnd = word(args, 0) + 32n; // lengthPrefixPointsTo
  if (offsetEnd > BigInt(args.length)) return undefined;
  const start = Number(offsetEnd);
  const length = word(args, start - 32);
  if (offsetEnd + length > BigInt(args.length)) return undefined;
  return args.subarray(start, start + Number(length));
}

/**
 * UTF-8 decoding as Go's utf8.DecodeRune walks it. Each byte of an invalid sequence becomes
 * INVALID_BYTE, which encoding/json.ts writes as Go does for such a byte: the escape `\ufffd`
 * (a valid U+FFFD in the text stays a raw character, as in Go).
 */
export function goUtf8(bytes: Uint8Array): string {
  const cps: number[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      cps.push(b0);
      i++;
      continue;
    }
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) need = 1;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      if (b0 === 0xe0) lo = 0xa0;
      if (b0 === 0xed) hi = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      if (b0 === 0xf0) lo = 0x90;
      if (b0 === 0xf4) hi = 0x8f;
    }
    // A leading byte that starts no sequence, a truncated sequence or a bad continuation byte.
    let ok = need > 0;
    if (ok) {
      const b1 = bytes[i + 1];
      if (b1 === undefined || b1 < lo || b1 > hi) ok = false;
      for (let k = 2; ok && k <= need; k++) {
        const b = bytes[i + k];
        if (b === undefined || b < 0x80 || b > 0xbf) ok = false;
      }
    }
    if (!ok) {
      cps.push(INVALID_BYTE_CODE);
      i++;
      continue;
    }
    let cp = b0 & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
    for (let k = 1; k <= need; k++) cp = (cp << 6) | (bytes[i + k]! & 0x3f);
    cps.push(cp);
    i += need + 1;
  }
  let out = '';
  for (let k = 0; k < cps.length; k += 4096) out += String.fromCodePoint(...cps.slice(k, k + 4096));
  return out;
}

/** The revertReason go-ethereum's callTracer shows for revert data, or undefined for none. */
export function decodeRevertReason(output: Uint8Array): string | undefined {
  if (output.length < 4) return undefined;
  const selector = ((output[0]! << 24) | (output[1]! << 16) | (output[2]! << 8) | output[3]!) >>> 0;
  const args = output.subarray(4);
  if (selector === ERROR_SELECTOR) {
    const text = unpackString(args);
    return text === undefined ? undefined : goUtf8(text);
  }
  if (selector === PANIC_SELECTOR) {
    if (args.length < 32) return undefined;
    const code = word(args, 0);
    return PANIC_REASONS.get(code) ?? `unknown panic code: 0x${code.toString(16)}`;
  }
  return undefined;
}
