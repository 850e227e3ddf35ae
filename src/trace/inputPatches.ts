// A large input kept as an earlier one (its base) plus the few byte ranges where it differs: how the
// recorder keeps the inputs of calls opened by opcodes (replay/callInputs.ts), and how a kept
// recording stores them (recordingCodec/encodeRecording.ts). A loop that calls with the same large memory
// region, changed in a few bytes from one call to the next, would otherwise hold one full copy per
// call: ethereum/tests static_Call50000_rip160 makes 50000 calls of 50000 bytes, 2.5 GB.

/** The bytes of an input, or how to rebuild them (base plus patches) each time they are read. */
export type KeptInput = Uint8Array | (() => Uint8Array);

/** A placeholder `input` for a frame literal that withInput then completes. */
export const NO_INPUT = new Uint8Array();

/**
 * `frame` (made with any `input`) given its kept input: the bytes, or a getter that rebuilds them
 * on each read. The recorder and the recording decoder make frames this way.
 */
export function withInput<F extends { input: Uint8Array }>(frame: F, input: KeptInput): F {
  if (typeof input === 'function') Object.defineProperty(frame, 'input', { get: input, enumerable: true });
  else frame.input = input;
  return frame;
}

/** Inputs shorter than this are kept whole: a patch would save little. */
export const SMALL_INPUT = 4096;
/** Differences are located to ranges of this many bytes. */
const LEAF = 64;
/** A patch may cover at most this fraction of the input; beyond it the input is kept whole. */
const MOST_PATCHED = 1 / 8;

/** Bytes that replace the base's from `at`. */
export interface Patch {
  readonly at: number;
  readonly bytes: Uint8Array;
}

/**
 * Where `now` differs from `base` (same length), as patches holding copies of `now`'s bytes; [] when
 * they are equal, undefined when they differ in more than MOST_PATCHED of their bytes.
 */
export function patchesFrom(base: Uint8Array, now: Uint8Array): Patch[] | undefined {
  const diff: Diff = { a: asBuffer(base), b: asBuffer(now), ranges: [], covered: 0, most: Math.floor(now.length * MOST_PATCHED) };
  if (!differences(diff, 0, now.length)) return undefined;
  const patches: Patch[] = [];
  for (let i = 0; i < diff.ranges.length; i += 2) patches.push({ at: diff.ranges[i]!, bytes: now.slice(diff.ranges[i]!, diff.ranges[i + 1]!) });
  return patches;
}

/** `base` with `patches` applied, made again on each call (never held whole). */
export function patched(base: Uint8Array, patches: readonly Patch[]): () => Uint8Array {
  return () => {
    const bytes = base.slice();
    for (const { at, bytes: patch } of patches) bytes.set(patch, at);
    return bytes;
  };
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
