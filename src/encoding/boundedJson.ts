// goJson with a byte budget: a result is written piece by piece (objects and arrays walked, each leaf
// serialised alone, the members of a LazyArray / LazyObject rendered only when reached) and the
// writing stops as soon as the budget is passed, so a result of gigabytes costs no more memory than
// the budget and answers "response too large" at once.
import { goJson } from './json.ts';
import { LazyArray, LazyObject } from './lazyJson.ts';

/** Thrown when the text would pass the budget. */
export class OverBudget extends Error {
  constructor(readonly limit: number) {
    super(`result over ${limit} bytes`);
  }
}

/**
 * JSON text rendered ahead, while the run it describes went on (a struct log is written as the
 * opcodes run, within a TextBudget): written as it is. `toJSON` parses it back for JSON.stringify.
 */
export class RenderedJson {
  constructor(readonly parts: readonly string[]) {}

  toJSON(): unknown {
    return JSON.parse(this.parts.join(''));
  }
}

/** The bytes pieces rendered ahead may add up to: the run they come from stops once it is spent. */
export class TextBudget {
  private used = 0;

  /** @param limit most bytes (0: no limit) */
  constructor(readonly limit: number) {}

  /** Counts `bytes` more text (ASCII); throws OverBudget once past the limit. */
  spend(bytes: number): void {
    this.used += bytes;
    if (this.limit > 0 && this.used > this.limit) throw new OverBudget(this.limit);
  }
}

/**
 * A plain subtree (no lazy container in it) of at most this many values is written by goJson in one
 * go: one JSON.stringify instead of one per leaf, and at most some hundreds of kilobytes of text
 * built before the budget is checked.
 */
const ONE_GO = 4096;

/**
 * The goJson text of `value` and its UTF-8 length; throws OverBudget once it passes `limit`
 * bytes (0: no limit). Walked even without a limit: lazy members are then rendered one at a time
 * too, rather than all at once by JSON.stringify's toJSON. `rendered`: part of it was RenderedJson.
 */
export function boundedGoJson(value: unknown, limit: number): { text: string; bytes: number; rendered: boolean } {
  const budget = limit > 0 ? limit : Number.POSITIVE_INFINITY;
  const weights = new WeakMap<object, number>();
  /** The number of values in `v` (itself included); infinite when a lazy container is in it. */
  const weight = (v: unknown): number => {
    if (v === null || typeof v !== 'object') return 1;
    if (v instanceof LazyArray || v instanceof LazyObject || v instanceof RenderedJson) return Number.POSITIVE_INFINITY;
    if (!Array.isArray(v) && 'toJSON' in v) return 1;
    let known = weights.get(v);
    if (known === undefined) {
      known = 1;
      for (const x of Array.isArray(v) ? v : Object.values(v)) {
        known += weight(x);
        if (known > ONE_GO) break;
      }
      weights.set(v, known);
    }
    return known;
  };
  const parts: string[] = [];
  let bytes = 0;
  let rendered = false;
  const emit = (text: string): void => {
    bytes += text.length; // a lower bound of the UTF-8 length, exact for ASCII
    if (bytes > budget) throw new OverBudget(limit);
    parts.push(text);
  };
  const write = (v: unknown): void => {
    if (v instanceof RenderedJson) {
      rendered = true;
      for (const part of v.parts) emit(part);
      return;
    }
    if (v instanceof LazyArray) {
      emit('[');
      let first = true;
      for (const item of v as LazyArray<unknown>) {
        if (!first) emit(',');
        first = false;
        write(item === undefined || typeof item === 'function' ? null : item);
      }
      return emit(']');
    }
    if (v instanceof LazyObject) {
      emit('{');
      let first = true;
      for (const [k, x] of v as LazyObject<unknown>) {
        if (x === undefined || typeof x === 'function') continue;
        emit(`${first ? '' : ','}${goJson(k)}:`);
        first = false;
        write(x);
      }
      return emit('}');
    }
    if (Array.isArray(v)) {
      if (weight(v) <= ONE_GO) return emit(goJson(v));
      emit('[');
      v.forEach((item, i) => {
        if (i > 0) emit(',');
        write(item === undefined || typeof item === 'function' ? null : item);
      });
      return emit(']');
    }
    if (v !== null && typeof v === 'object' && !('toJSON' in v)) {
      if (weight(v) <= ONE_GO) return emit(goJson(v));
      const entries = Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function');
      emit('{');
      entries.forEach(([k, x], i) => {
        emit(`${i > 0 ? ',' : ''}${goJson(k)}:`);
        write(x);
      });
      return emit('}');
    }
    emit(goJson(v));
  };
  write(value);
  const text = parts.join('');
  const exact = Buffer.byteLength(text);
  if (exact > budget) throw new OverBudget(limit);
  return { text, bytes: exact, rendered };
}
