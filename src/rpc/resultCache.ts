// Rendered results of trace calls, by method and raw params text. A fixture chain never changes,
// so a result once rendered is the answer forever: repeats cost a map lookup, not a render.
// Bounded by total size; the least recently used results go first.
import { TRACE_METHODS } from './methodNames.ts';

/** Methods whose results depend only on the (immutable) chain and their params. */
const CACHEABLE = new Set<string>(TRACE_METHODS);

/** A rendered result and its UTF-8 size (kept: measuring a large result is not free). */
export interface CachedResult {
  readonly text: string;
  readonly bytes: number;
}

export class ResultCache {
  private readonly entries = new Map<string, CachedResult>();
  private size = 0;

  /** @param maxBytes most result bytes kept. */
  constructor(private readonly maxBytes: number) {}

  static key(method: string, rawParams: string | undefined): string | undefined {
    return CACHEABLE.has(method) ? `${method}\n${rawParams ?? ''}` : undefined;
  }

  get(key: string): CachedResult | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: CachedResult): void {
    if (value.bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.size -= old.bytes;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.size += value.bytes;
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(k);
      this.size -= v.bytes;
    }
  }
}
