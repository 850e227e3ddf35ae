// JSON containers whose members are produced only when they are written. A renderer returns them
// for lists that grow with the recording (frames, logs, traces, accounts, a block's transactions),
// so encoding/boundedJson.ts can render one member, write it, drop it, and stop at its budget:
// nothing larger than the budget is ever built. Each iteration renders afresh (they hold no
// state), and `toJSON` gives the whole value to JSON.stringify (goJson, no budget).

/** A JSON array whose items come from `items()`, one at a time. */
export class LazyArray<T> implements Iterable<T> {
  constructor(private readonly items: () => Iterable<T>) {}

  [Symbol.iterator](): Iterator<T> {
    return this.items()[Symbol.iterator]();
  }

  /** Every item, built at once. */
  toJSON(): T[] {
    return [...this];
  }
}

/** A JSON object whose members come from `entries()` in key order, one at a time. */
export class LazyObject<T> implements Iterable<readonly [string, T]> {
  constructor(private readonly entries: () => Iterable<readonly [string, T]>) {}

  [Symbol.iterator](): Iterator<readonly [string, T]> {
    return this.entries()[Symbol.iterator]();
  }

  /** Every member, built at once. */
  toJSON(): Record<string, T> {
    const out: Record<string, T> = {};
    for (const [key, value] of this) out[key] = value;
    return out;
  }
}

/** An array of `items` produced by `render` as they are written. */
export function lazyMap<S, T>(items: readonly S[], render: (item: S, index: number) => T): LazyArray<T> {
  return new LazyArray(function* () {
    for (let i = 0; i < items.length; i++) yield render(items[i]!, i);
  });
}

/** The `n`th item of a list, rendering only the items before it. */
export function nth<T>(items: Iterable<T>, n: number): T | undefined {
  let i = 0;
  for (const item of items) if (i++ === n) return item;
  return undefined;
}
