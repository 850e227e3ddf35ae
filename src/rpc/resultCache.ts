// Rendered results of trace calls, by method and raw params text. A fixture chain never changes,
// so a result once rendered is the answer forever: repeats cost a map lookup, not a render.
// Bounded by total size; the least recently used results go first.

/** Methods whose results depend only on the (immutable) chain and their params. */
const CACHEABLE = new Set([
  'debug_traceBlockByNumber',
  'debug_traceBlockByHash',
  'debug_traceTransaction',
  'trace_block',
  'trace_transaction',
]);

export class ResultCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  /** @param maxBytes most result text kept (UTF-16 code units, close enough to bytes for JSON). */
  constructor(private readonly maxBytes: number) {}

  static key(method: string, rawParams: string | undefined): string | undefined {
    return CACHEABLE.has(method) ? `${method}\n${rawParams ?? ''}` : undefined;
  }

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    if (value.length > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.size -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.size += value.length;
    for (const [k, v] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(k);
      this.size -= v.length;
    }
  }
}
