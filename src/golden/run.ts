// Replays recorded exchanges through dispatch (the same path as the server and the harness) and
// compares each answer with its recording. Used by `blocktrace check` and by the project's tests.
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';
import { compare, type CompareMode, type Difference } from './compare.ts';
import type { Exchange, GoldenSet, Layout } from './layouts.ts';
import type { PlacedDifference } from '../compare/types.ts';
import { member, parseWhole } from './jsonText.ts';

interface CaseBase {
  readonly name: string;
  /** The file the recording was read from. */
  readonly file: string;
  /** The GOLDEN argument (file or directory) it was found under. */
  readonly golden: string;
  readonly methods: readonly string[];
}

export type CaseResult =
  | (CaseBase & { readonly status: 'pass'; readonly layout: Layout; readonly timeMs: number })
  | (CaseBase & {
      readonly status: 'fail';
      readonly layout: Layout;
      readonly timeMs: number;
      /** The first difference with the bytes around it (the report of old, kept for `--json` readers). */
      readonly difference: Difference;
      /** Every difference, in document order, placed and decoded. */
      readonly differences: readonly PlacedDifference[];
    })
  | (CaseBase & { readonly status: 'skip'; readonly reason: string });

export interface CheckReport {
  readonly mode: CompareMode;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly cases: readonly CaseResult[];
}

/** The method names a request body calls (every member of a batch); none when it has none. */
export function requestMethods(request: string): string[] {
  const root = parseWhole(request);
  const calls = root?.t === 'array' ? root.items : root === undefined ? [] : [root];
  const methods: string[] = [];
  for (const call of calls) {
    const method = member(call, 'method');
    if (method?.t === 'string' && !methods.includes(method.value)) methods.push(method.value);
  }
  return methods;
}

/** A case is kept when a filter equals one of its methods or occurs in its name; no filter keeps all. */
export function selected(filters: readonly string[], name: string, methods: readonly string[]): boolean {
  return filters.length === 0 || filters.some((f) => methods.includes(f) || name.includes(f));
}

/** The exchanges and skipped recordings that `filters` keep. */
export function select(set: GoldenSet, filters: readonly string[]): GoldenSet {
  return {
    exchanges: set.exchanges.filter((e) => selected(filters, e.name, requestMethods(e.request))),
    skipped: set.skipped.filter((s) => selected(filters, s.name, requestMethods(s.request))),
  };
}

/** One exchange: our answer against the recording; undefined when they match. */
export async function checkExchange(ctx: RpcContext, exchange: Exchange, mode: CompareMode): Promise<Difference | undefined> {
  return compare(exchange.response, await dispatch(exchange.request, ctx), mode);
}

export interface CheckOptions {
  readonly mode: CompareMode;
  /** Called before each exchange (progress display). */
  readonly onCase?: (done: number, total: number, name: string) => void;
}

export async function checkAll(ctx: RpcContext, set: GoldenSet, options: CheckOptions): Promise<CheckReport> {
  const cases: CaseResult[] = [];
  const total = set.exchanges.length;
  for (const [i, exchange] of set.exchanges.entries()) {
    options.onCase?.(i, total, exchange.name);
    const { name, file } = exchange;
    const methods = requestMethods(exchange.request);
    const difference = await checkExchange(ctx, exchange, options.mode);
    cases.push(difference === undefined ? { status: 'pass', name, file, methods } : { status: 'fail', name, file, methods, difference });
  }
  for (const { name, file, request, reason } of set.skipped) cases.push({ status: 'skip', name, file, methods: requestMethods(request), reason });
  const count = (status: CaseResult['status']): number => cases.filter((c) => c.status === status).length;
  return { mode: options.mode, passed: count('pass'), failed: count('fail'), skipped: count('skip'), cases };
}
