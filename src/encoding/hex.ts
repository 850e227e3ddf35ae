// Hex as the reference clients print it: lowercase, 0x-prefixed; quantities without leading zeros.
import { bytesToHex } from '@ethereumjs/util';

/** Bytes as `0x…` lowercase; empty bytes are `0x`. */
export function hexBytes(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}

/** A quantity as minimal hex: 0 → `0x0`, 255 → `0xff`. */
export function hexQuantity(value: bigint | number): string {
  return '0x' + value.toString(16);
}

/** A 32-byte word as `0x` + 64 hex digits. */
export function hexWord(value: bigint): string {
  return '0x' + value.toString(16).padStart(64, '0');
}
