// Code seen on a chain matched to an artifact's. Runtime code (what an address holds) is compared
// with the immutables zeroed, as the artifact has them; init code (what a creation runs) is the
// artifact's creation code followed by the constructor's ABI-encoded arguments. Both leave out
// Solidity's metadata trailer, which changes with any edit of a comment or a path, and creation code
// leaves open the linked-library placeholders an unlinked artifact holds. Hex without 0x, lower case.

/** The metadata trailer's length in hex digits (0 when there is none): the last two bytes give the CBOR length before them. */
function trailerLength(code: string): number {
  if (code.length < 4) return 0;
  const total = (Number.parseInt(code.slice(-4), 16) + 2) * 2;
  // a CBOR map of 1 to 5 entries (solc writes a2 or a3: ipfs/bzzr, solc version, experimental)
  return total <= code.length && /^a[1-5]$/.test(code.slice(-total, -total + 2)) ? total : 0;
}

export const withoutMetadata = (code: string): string => code.slice(0, code.length - trailerLength(code));

/** `code` with the byte ranges of `immutables` zeroed. */
export function masked(code: string, immutables: readonly { start: number; length: number }[] | undefined): string {
  if (immutables === undefined || immutables.length === 0) return code;
  const chars = code.split('');
  for (const { start, length } of immutables) for (let i = start * 2; i < (start + length) * 2 && i < chars.length; i++) chars[i] = '0';
  return chars.join('');
}

/** A linked-library placeholder: `__$` 34 hex digits `$__` (solc ≥ 0.5), or `__Name____…` padded to 40 (older). */
const PLACEHOLDER = /__\$[0-9a-f]{34}\$__|__[A-Za-z0-9_.:/$]{36}__/g;

/** Creation code prepared for matching init codes: the pieces that must be equal, each at its offset. */
export interface CreationPattern {
  /** Its length in hex digits: the constructor's arguments start there. */
  readonly length: number;
  readonly pieces: readonly { readonly at: number; readonly text: string }[];
}

export function creationPattern(code: string): CreationPattern {
  const fixed = code.slice(0, code.length - trailerLength(code));
  const pieces: { at: number; text: string }[] = [];
  let from = 0;
  for (const m of fixed.matchAll(PLACEHOLDER)) {
    if (m.index > from) pieces.push({ at: from, text: fixed.slice(from, m.index) });
    from = m.index + m[0].length;
  }
  if (fixed.length > from) pieces.push({ at: from, text: fixed.slice(from) });
  return { length: code.length, pieces };
}

/** Whether `init` (hex without 0x, lower case) begins with the creation code of `pattern`. */
export const startsWithCreation = (init: string, pattern: CreationPattern): boolean =>
  init.length >= pattern.length && pattern.pieces.every((p) => init.startsWith(p.text, p.at));

/** `code` with each linked-library placeholder read as 20 zero bytes (hex again). */
export const placeholdersZeroed = (code: string): string => code.replace(PLACEHOLDER, '0'.repeat(40));

/**
 * Byte ranges of runtime code that a deployment writes in besides immutables: each linked library's
 * address (an unlinked artifact holds a placeholder there) and, in a library's own code, the PUSH20
 * of zeros that becomes its address (solc's call protection).
 */
export function linkedRanges(code: string): { start: number; length: number }[] {
  const ranges: { start: number; length: number }[] = [];
  for (const m of code.matchAll(PLACEHOLDER)) ranges.push({ start: m.index / 2, length: 20 });
  if (code.startsWith(`73${'0'.repeat(40)}`)) ranges.push({ start: 1, length: 20 });
  return ranges;
}
