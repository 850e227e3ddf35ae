// A matched code's source map, read once: pc → the source range solc gives for the instruction there,
// the file's line and column, and whether the instruction jumps into or out of a function.
import type { Build, CompiledCode, SourceFile } from './builds.ts';
import { instructionIndex, type JumpKind, LineIndex, parseSourceMap, type SourceMapEntry, SourceMapError } from './sourceMap.ts';

/** Where an instruction comes from in a source. */
export interface SourceLocation {
  readonly file: SourceFile;
  readonly start: number;
  readonly length: number;
  /** From 1. */
  readonly line: number;
  /** From 1, in characters. */
  readonly column: number;
}

export interface MappedInstruction {
  /** In a user's file, or in the compiler's own code (`#utility.yul`, file.generated), when its text is known. */
  readonly location: SourceLocation | undefined;
  /** The raw entry: its file id may name no source known here. */
  readonly entry: SourceMapEntry;
  readonly jump: JumpKind;
}

const lineIndexes = new WeakMap<SourceFile, LineIndex>();

/** The line index of a source's text (made once per source). */
export function linesOf(file: SourceFile): LineIndex | undefined {
  if (file.content === undefined) return undefined;
  let index = lineIndexes.get(file);
  if (index === undefined) lineIndexes.set(file, (index = new LineIndex(file.content)));
  return index;
}

export class CodeSource {
  private readonly entries: SourceMapEntry[];
  private readonly index: Int32Array;

  /**
   * @param code the running code (its instructions are counted: PUSH data is not one)
   * @throws SourceMapError when the map is malformed or has fewer entries than the code instructions
   */
  constructor(readonly build: Build, readonly compiled: CompiledCode, code: Uint8Array) {
    this.entries = parseSourceMap(compiled.sourceMap);
    if (this.entries.length === 0) throw new SourceMapError('the artifact has no source map for this code');
    this.index = instructionIndex(code);
    for (const entry of this.entries) {
      const file = this.fileOf(entry.file);
      if (entry.start >= 0 && file?.content !== undefined && !linesOf(file)!.holds(entry.start, entry.length)) {
        throw new SourceMapError(`the source map names bytes ${entry.start}-${entry.start + entry.length} of ${file.path}, which has ${Buffer.byteLength(file.content)}: another version of the file?`);
      }
    }
  }

  /** The source file of an id: the build's, or this code's generated ones. */
  fileOf(id: number): SourceFile | undefined {
    return this.build.sources.get(id) ?? this.compiled.generated.get(id);
  }

  /** Each pc's instruction, placed when the code is first met: a loop steps through the same few again and again. */
  private placed: (MappedInstruction | undefined)[] | undefined;

  /** The instruction at `pc`; undefined past the map (the metadata trailer, a pc in PUSH data). */
  at(pc: number): MappedInstruction | undefined {
    if (this.placed === undefined) {
      this.placed = [];
      for (let p = 0; p < this.index.length; p++) this.placed.push(this.place(p));
    }
    return this.placed[pc];
  }

  private place(pc: number): MappedInstruction | undefined {
    const i = this.index[pc];
    const entry = i === undefined || i < 0 ? undefined : this.entries[i];
    if (entry === undefined) return undefined;
    const file = entry.file >= 0 && entry.start >= 0 ? this.fileOf(entry.file) : undefined;
    const lines = file === undefined ? undefined : linesOf(file);
    if (file === undefined || lines === undefined) return { location: undefined, entry, jump: entry.jump };
    const { line, column } = lines.at(entry.start);
    return { location: { file, start: entry.start, length: entry.length, line, column }, entry, jump: entry.jump };
  }
}
