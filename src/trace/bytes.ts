// Byte facts the renderers need, without reaching into the EVM library.

/** keccak256 of empty code: the code hash of an account without code. */
export const EMPTY_CODE_HASH = Uint8Array.from(
  Buffer.from('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470', 'hex'),
);

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
