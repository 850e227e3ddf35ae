// solc's source maps (docs.soliditylang.org, "Source Mappings"): one `s:l:f:j:m` entry per
// instruction of the code, separated by `;`, an empty field meaning "as the entry before". `s` and
// `l` are the byte offset and length of the source range, `f` the source id (-1: no source, code
// the compiler made up), `j` whether the instruction is a jump into a function (`i`), out of one
// (`o`) or neither (`-`), `m` the modifier depth. Entries index instructions, not bytes: PUSH data
// counts for nothing, so a pc is turned into an instruction index first (instructionIndex).

/** What a jump does: into a function, out of one, or neither. */
export type JumpKind = 'i' | 'o' | '-';

export interface SourceMapEntry {
  /** Byte offset of the range in its source (-1 with `file` -1). */
  readonly start: number;
  /** Byte length of the range. */
  readonly length: number;
  /** Source id in its build; -1 when no source produced the instruction. */
  readonly file: number;
  readonly jump: JumpKind;
  readonly modifierDepth: number;
}

export class SourceMapError extends Error {}

/** The entries of a compressed source map, in instruction order. Throws SourceMapError on a malformed one. */
export function parseSourceMap(map: string): SourceMapEntry[] {
  const out: SourceMapEntry[] = [];
  if (map === '') return out;
  let start = 0;
  let length = 0;
  let file = -1;
  let jump: JumpKind = '-';
  let modifierDepth = 0;
  const items = map.split(';');
  for (let i = 0; i < items.length; i++) {
    const fields = items[i]!.split(':');
    if (fields.length > 5) throw new SourceMapError(`source map entry ${i} has ${fields.length} fields: "${items[i]}"`);
    const int = (k: number, previous: number, min: number): number => {
      const text = fields[k];
      if (text === undefined || text === '') return previous;
      if (!/^-?\d+$/.test(text)) throw new SourceMapError(`source map entry ${i}: "${text}" is not a number`);
      const value = Number(text);
      if (value < min) throw new SourceMapError(`source map entry ${i}: ${value} is out of range`);
      return value;
    };
    // an instruction with no source is `-1:-1:-1` where solc writes all three
    start = int(0, start, -1);
    length = int(1, length, -1);
    file = int(2, file, -1);
    const j = fields[3];
    if (j !== undefined && j !== '') {
      if (j !== 'i' && j !== 'o' && j !== '-') throw new SourceMapError(`source map entry ${i}: jump "${j}" is not i, o or -`);
      jump = j;
    }
    modifierDepth = int(4, modifierDepth, 0);
    out.push({ start, length, file, jump, modifierDepth });
  }
  return out;
}

const PUSH1 = 0x60;
const PUSH32 = 0x7f;

/**
 * For each byte of `code`, the index of the instruction that starts there, or -1 inside PUSH data
 * (the EVM never runs those bytes as opcodes: a jump there is invalid).
 */
export function instructionIndex(code: Uint8Array): Int32Array {
  const index = new Int32Array(code.length).fill(-1);
  let n = 0;
  for (let pc = 0; pc < code.length; pc++) {
    index[pc] = n++;
    const op = code[pc]!;
    if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1;
  }
  return index;
}

/** Where each line of a source starts, in bytes of its UTF-8 text, so offsets become line and column. */
export class LineIndex {
  private readonly starts: number[] = [0];
  private readonly bytes: Uint8Array;

  constructor(readonly text: string) {
    this.bytes = new TextEncoder().encode(text);
    for (let i = 0; i < this.bytes.length; i++) if (this.bytes[i] === 0x0a) this.starts.push(i + 1);
  }

  /** Number of lines. */
  get lines(): number {
    return this.starts.length;
  }

  /** Line and column of a byte offset, both from 1; the column counts characters (UTF-16 units), not bytes. */
  at(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const lineStart = this.starts[lo]!;
    const prefix = this.bytes.subarray(lineStart, Math.min(offset, this.bytes.length));
    return { line: lo + 1, column: decoder.decode(prefix).length + 1 };
  }

  /** The text of a byte range. */
  slice(start: number, length: number): string {
    return decoder.decode(this.bytes.subarray(start, start + length));
  }

  /** Whether a range lies within the source. */
  holds(start: number, length: number): boolean {
    return start + length <= this.bytes.length;
  }
}

const decoder = new TextDecoder();
