// The filters clients poll (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter),
// kept beside the dispatcher as go-ethereum's FilterAPI keeps them (eth/filters/api.go): ids as
// rpc.NewID makes them, a filter not polled for five minutes removed, an unknown id "filter not
// found". A fixture chain never grows, so changes are always empty; the registry is capped so that
// nobody can fill memory with filters.
import { randomBytes } from 'node:crypto';
import type { FilterCriteria } from '../filterParams.ts';

export type Filter =
  | { readonly kind: 'logs'; readonly criteria: FilterCriteria }
  | { readonly kind: 'blocks' }
  | { readonly kind: 'pending' };

interface Entry {
  readonly filter: Filter;
  lastPolled: number;
}

/** eth/filters/api.go: filters not polled within this are uninstalled (deadline, 5 minutes). */
export const FILTER_DEADLINE_MS = 5 * 60 * 1000;
/** The most filters open at once; past it eth_new*Filter is refused. */
export const MAX_FILTERS = 10_000;

/** rpc/subscription.go randomIDGenerator + encodeID: 16 random bytes, hex, leading zeros trimmed. */
export function newId(): string {
  const hex = randomBytes(16).toString('hex').replace(/^0+/, '');
  return `0x${hex === '' ? '0' : hex}`;
}

export class FilterLimitError extends Error {}

export class FilterRegistry {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly deadlineMs = FILTER_DEADLINE_MS,
    private readonly max = MAX_FILTERS,
  ) {}

  /** Installs a filter and returns its id; throws FilterLimitError when `max` are open. */
  install(filter: Filter): string {
    this.expire();
    if (this.entries.size >= this.max) throw new FilterLimitError(`too many filters installed (at most ${this.max}); uninstall some with eth_uninstallFilter`);
    let id = newId();
    while (this.entries.has(id)) id = newId();
    this.entries.set(id, { filter, lastPolled: this.now() });
    return id;
  }

  /** The filter of this id, marking it polled; undefined for an unknown or expired one. */
  poll(id: string): Filter | undefined {
    this.expire();
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    entry.lastPolled = this.now();
    return entry.filter;
  }

  uninstall(id: string): boolean {
    this.expire();
    return this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }

  /** eth/filters/api.go timeoutLoop: drops the filters not polled within the deadline. */
  expire(): void {
    const oldest = this.now() - this.deadlineMs;
    for (const [id, entry] of this.entries) if (entry.lastPolled < oldest) this.entries.delete(id);
  }
}
