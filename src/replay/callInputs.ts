// How the recorder keeps the inputs of calls and creates opened by opcodes. A loop that calls with
// the same large memory region, changed in a few bytes (a counter) from one call to the next, would
// otherwise hold one full copy per call: ethereum/tests static_Call50000_rip160 makes 50000 calls
// of 50000 bytes, 2.5 GB. An input is kept as the last full copy (the base) when it is the same
// bytes, as the base plus the few ranges where it differs, or else becomes the new base.

/** The bytes of an input, or how to rebuild them (base plus patches) each time they are read. */
export type KeptInput = Uint8Array | (() => Uint8Array);

/** Inputs shorter than this are copied: a patch would save little. */
const SMALL_INPUT = 4096;
/** Differences are located to ranges of this many bytes. */
const LEAF = 64;
/** A patch may cover at most this fraction of the input; beyond it the input becomes the base. */
const MOST_PATCHED = 1 / 8;

export class CallInputs {
  private base: Uint8Array | undefined;

  /** Keeps `view` (a view of EVM memory, changed later: never kept itself). */
  keep(view: Uint8Array): KeptInput {
    if (view.length < SMALL_INPUT) return view.slice();
    const base = this.base;
    if (base !== undefined && base.length === view.length) {
      const diff: Diff = { a: asBuffer(base), b: asBuffer(view), ranges: [], covered: 0, most: Math.floor(view.length * MOST_PATCHED) };
      if (differences(diff, 0, view.length)) return diff.ranges.length === 0 ? base : patched(base, diff.ranges, view);
    }
    this.base = view.slice();
    return this.base;
  }
}

const asBuffer = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);

interface Diff {
  readonly a: Buffer;
  readonly b: Buffer;
  /** start, end pairs, ascending. */
  readonly ranges: number[];
  covered: number;
  readonly most: number;
}

/** Collects where `a` and `b` differ in [start, end), to LEAF bytes; false once that passes `most` bytes. */
function differences(d: Diff, start: number, end: number): boolean {
  if (d.a.compare(d.b, start, end, start, end) === 0) return true;
  if (end - start <= LEAF) {
    const last = d.ranges.length - 1;
    if (last > 0 && d.ranges[last] === start) d.ranges[last] = end;
    else d.ranges.push(start, end);
    d.covered += end - start;
    return d.covered <= d.most;
  }
  const mid = start + Math.ceil((end - start) / 2 / LEAF) * LEAF;
  return differences(d, start, mid) && differences(d, mid, end);
}

/** `base` with the bytes of `now` in `ranges`, rebuilt on each read. */
function patched(base: Uint8Array, ranges: readonly number[], now: Uint8Array): () => Uint8Array {
  const patches: { at: number; bytes: Uint8Array }[] = [];
  for (let i = 0; i < ranges.length; i += 2) patches.push({ at: ranges[i]!, bytes: now.slice(ranges[i]!, ranges[i + 1]!) });
  return () => {
    const bytes = base.slice();
    for (const { at, bytes: patch } of patches) bytes.set(patch, at);
    return bytes;
  };
}
