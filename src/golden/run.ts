// Replays recorded exchanges through dispatch (the same path as the server and the harness) and
// compares each answer with its recording. Used by `blocktrace check` and by the project's tests.
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';
import type { AbiDecoder } from '../abi/decoder.ts';
import { findDifferences } from '../compare/answers.ts';
import type { CompareMode } from '../compare/diff.ts';
import type { IgnoreRules } from '../compare/ignore.ts';
import { member, parseWhole } from '../compare/jsonText.ts';
import { decodingFor } from '../compare/labels.ts';
import { codeAtHead } from '../rpc/inProcess.ts';
import { withLine } from '../compare/location.ts';
import type { PlacedDifference } from '../compare/types.ts';
import type { Exchange, GoldenSet, Layout } from './layouts.ts';
import { valueLine } from './valueLine.ts';

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
      /** Every difference, in document order, placed and decoded (at least one). */
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

/** A deterministic 1/N of the cases by name: sorted by name (then file), every Nth from the Ith. */
export function shard(set: GoldenSet, index: number, count: number): GoldenSet {
  const order = [...set.exchanges, ...set.skipped].sort((a, b) => compareText(a.name, b.name) || compareText(a.file, b.file));
  const kept = new Set(order.filter((_, i) => i % count === index - 1));
  return { exchanges: set.exchanges.filter((e) => kept.has(e)), skipped: set.skipped.filter((s) => kept.has(s)) };
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export interface CaseOptions {
  readonly mode: CompareMode;
  readonly ignore?: IgnoreRules;
  /** ABIs to decode the report with; contract names come from the code at each address. */
  readonly decoder?: AbiDecoder;
}

/** Our answer to one exchange and every difference from its recording (none: it passes). */
export async function checkCase(ctx: RpcContext, exchange: Exchange, options: CaseOptions, known = new Map<string, string | undefined>()): Promise<{ answer: string | undefined; differences: PlacedDifference[] }> {
  const answer = await dispatch(exchange.request, ctx);
  const tokens = exchange.layout === 'pair' || exchange.layout === 'packed';
  const found = findDifferences(exchange.request, exchange.response, answer, { mode: options.mode, tokens, ...(options.ignore === undefined ? {} : { ignore: options.ignore }) });
  if (found.differences.length === 0) return { answer, differences: [] };
  const differences = options.decoder === undefined ? [...found.differences] : found.decoded(await decodingFor(codeAtHead(ctx), options.decoder, [exchange.response, answer], known));
  return { answer, differences };
}

/** One exchange: our answer against the recording; undefined when they match (the first difference otherwise). */
export async function checkExchange(ctx: RpcContext, exchange: Exchange, mode: CompareMode): Promise<PlacedDifference | undefined> {
  return (await checkCase(ctx, exchange, { mode })).differences[0];
}

export interface CheckOptions extends CaseOptions {
  /** Called before each exchange (progress display). */
  readonly onCase?: (done: number, total: number, name: string) => void;
  /** Called with our answer to each failing exchange (`--update`). */
  readonly onFail?: (exchange: Exchange, answer: string | undefined) => void;
}

export async function checkAll(ctx: RpcContext, set: GoldenSet, options: CheckOptions): Promise<CheckReport> {
  const cases: CaseResult[] = [];
  const total = set.exchanges.length;
  const known = new Map<string, string | undefined>();
  for (const [i, exchange] of set.exchanges.entries()) {
    options.onCase?.(i, total, exchange.name);
    const { name, file, golden, layout } = exchange;
    const methods = requestMethods(exchange.request);
    const started = performance.now();
    const { answer, differences } = await checkCase(ctx, exchange, options, known);
    const timeMs = performance.now() - started;
    if (differences.length === 0) {
      cases.push({ status: 'pass', name, file, golden, layout, methods, timeMs });
    } else {
      // a pretty golden is read line by line in a review: each difference says where its value is
      const response = layout === 'pair' ? exchange.response : undefined;
      const placed = response === undefined ? differences : differences.map((d) => withLine(d, valueLine(response, d.location.steps)));
      cases.push({ status: 'fail', name, file, golden, layout, methods, timeMs, differences: placed });
      options.onFail?.(exchange, answer);
    }
  }
  for (const { name, file, golden, request, reason } of set.skipped) cases.push({ status: 'skip', name, file, golden, methods: requestMethods(request), reason });
  const count = (status: CaseResult['status']): number => cases.filter((c) => c.status === status).length;
  return { mode: options.mode, passed: count('pass'), failed: count('fail'), skipped: count('skip'), cases };
}
