// Every difference between two parsed JSON values, in the recording's document order. `bytes` (the
// contract) compares leaves by their source text, so escapes and number spellings count, and names
// a change of key order once per object; `semantic` compares leaves by value and ignores key order
// (recordings that were key-sorted, such as Erigon's rpc-tests). Object members are matched by name
// either way, so one moved or added member is one difference, not every member after it.
import type { JsonNode } from '../encoding/rawJson.ts';
import { isIgnored, type IgnoreRules } from './ignore.ts';
import type { PathStep, SameValue } from './types.ts';

export type CompareMode = 'bytes' | 'semantic';


export interface RawDifference {
  /** The path in the recording (in ours, for what only ours has). */
  readonly steps: readonly PathStep[];
  /**
   * Where an item added or removed before it shifted the indices: the path on each side, -1 for an
   * item that side does not have (`steps` is then the other side's).
   */
  readonly sides?: { readonly expected: readonly PathStep[]; readonly got: readonly PathStep[] };
  /** undefined: missing on that side. */
  readonly expected: JsonNode | undefined;
  readonly got: JsonNode | undefined;
  readonly note?: string;
  /** What the sides share though they differ here (compare/types.ts Difference.sameValue). */
  readonly sameValue?: SameValue;
  /** A change of key order alone (bytes mode): the common keys in each side's order. */
  readonly order?: { readonly expected: readonly string[]; readonly got: readonly string[] };
}

type Obj = JsonNode & { t: 'object' };

/** Numbers by value: integers exactly, others as doubles (`1.0` equals `1`, `1e2` equals `100`). */
function sameNumber(a: string, b: string): boolean {
  const integer = /^-?\d+$/;
  if (integer.test(a) && integer.test(b)) return BigInt(a) === BigInt(b);
  return Number(a) === Number(b);
}

function sameValue(a: JsonNode, b: JsonNode): boolean {
  if (a.t === 'string' && b.t === 'string') return a.value === b.value;
  if (a.t === 'number' && b.t === 'number') return sameNumber(a.raw, b.raw);
  return a.t === b.t && a.raw === b.raw;
}

/** Members by name; a duplicated key keeps its last value (as encoding/json does). */
function members(node: Obj): Map<string, JsonNode> {
  const map = new Map<string, JsonNode>();
  for (const [k, v] of node.entries) map.set(k, v);
  return map;
}

/** Where the walk is: the path in the recording and, once an aligned array shifted the items, in ours. */
interface At {
  readonly steps: PathStep[];
  readonly gotSteps?: PathStep[];
}

const step = (at: At, expected: PathStep, got: PathStep = expected): At =>
  at.gotSteps === undefined && expected === got ? { steps: [...at.steps, expected] } : { steps: [...at.steps, expected], gotSteps: [...(at.gotSteps ?? at.steps), got] };

class Walk {
  readonly out: RawDifference[] = [];
  constructor(
    private readonly mode: CompareMode,
    private readonly ignore: IgnoreRules,
  ) {}

  private push(at: At, expected: JsonNode | undefined, got: JsonNode | undefined, extra: Partial<RawDifference> = {}): void {
    if (at.gotSteps === undefined) {
      this.out.push({ steps: at.steps, expected, got, ...extra });
      return;
    }
    // shown at the recording's path, or at ours for an item only ours has
    const steps = at.steps.at(-1) === -1 ? at.gotSteps : at.steps;
    this.out.push({ steps, sides: { expected: at.steps, got: at.gotSteps }, expected, got, ...extra });
  }

  node(a: JsonNode, b: JsonNode, at: At): void {
    if (a.t === 'object' && b.t === 'object') return this.object(a, b, at);
    if (a.t === 'array' && b.t === 'array') return this.array(a.items, b.items, at);
    if (a.t === 'object' || a.t === 'array' || b.t === 'object' || b.t === 'array') return this.push(at, a, b);
    if (this.mode === 'bytes' ? a.raw === b.raw : sameValue(a, b)) return;
    const spelling = this.mode === 'bytes' && sameValue(a, b) ? { note: `the same ${a.t === 'string' ? 'string' : 'number'}, written differently`, sameValue: 'spelling' as const } : {};
    this.push(at, a, b, spelling);
  }

  private object(a: Obj, b: Obj, at: At): void {
    const ma = members(a);
    const mb = members(b);
    const keep = (key: string): boolean => !isIgnored(this.ignore, [...at.steps, key]);
    const keysA = [...ma.keys()].filter(keep);
    const keysB = [...mb.keys()].filter(keep);
    if (this.mode === 'bytes') {
      const common = new Set(keysA.filter((k) => mb.has(k)));
      const orderA = keysA.filter((k) => common.has(k));
      const orderB = keysB.filter((k) => common.has(k));
      if (orderA.some((k, i) => k !== orderB[i])) this.push(at, undefined, undefined, { note: 'the same keys in another order', sameValue: 'keyOrder', order: { expected: orderA, got: orderB } });
    }
    for (const key of keysA) {
      const vb = mb.get(key);
      if (vb === undefined) this.push(step(at, key), ma.get(key), undefined);
      else this.node(ma.get(key)!, vb, step(at, key));
    }
    for (const key of keysB) if (!ma.has(key)) this.push(step(at, key), undefined, mb.get(key));
  }

  private array(a: readonly JsonNode[], b: readonly JsonNode[], at: At): void {
    const counts = `the recording has ${a.length} items, ours ${b.length}`;
    const pairs = a.length === b.length ? undefined : aligned(a, b);
    if (pairs !== undefined) {
      // a call, log or transaction added or removed: the items around it are paired by what they are
      for (const [i, j] of pairs) {
        const here = step(at, i ?? -1, j ?? -1);
        if (isIgnored(this.ignore, [...at.steps, i ?? j!])) continue;
        if (i !== undefined && j !== undefined) this.node(a[i]!, b[j]!, here);
        else this.push(here, i === undefined ? undefined : a[i], j === undefined ? undefined : b[j], { note: `${i === undefined ? 'only in ours' : 'only in the recording'}; ${counts}` });
      }
      return;
    }
    const longest = Math.max(a.length, b.length);
    for (let i = 0; i < longest; i++) {
      const here = step(at, i);
      if (isIgnored(this.ignore, here.steps)) continue;
      const [va, vb] = [a[i], b[i]];
      if (va !== undefined && vb !== undefined) this.node(va, vb, here);
      else this.push(here, va, vb, a.length === b.length ? {} : { note: counts });
    }
  }
}

/** Members that say what an item of a trace is: its transaction, its place, its callee and function, a log's emitter and event. */
const IDENTITY = ['txHash', 'transactionHash', 'transactionPosition', 'traceAddress', 'type', 'from', 'to', 'address'];
/** Arrays longer than this (items on each side multiplied) are compared index by index. */
const MAX_ALIGNED = 4_000_000;

function identity(node: JsonNode): string | undefined {
  if (node.t !== 'object') return undefined;
  let key = '';
  for (const [k, v] of node.entries) {
    if (IDENTITY.includes(k)) key += `${k}=${v.raw};`;
    else if (k === 'input' && v.t === 'string') key += `input=${v.value.slice(0, 10)};`;
    else if (k === 'topics' && v.t === 'array') key += `topic0=${v.items[0]?.raw ?? ''};`;
  }
  return key === '' ? undefined : key;
}

/**
 * Items of arrays of different lengths paired by identity (a longest common subsequence of the
 * items' identities), in order: [i, j] a pair, [i, undefined] only in the recording, [undefined, j]
 * only in ours. Undefined when the items have no identity (plain values) or the arrays are too long.
 */
function aligned(a: readonly JsonNode[], b: readonly JsonNode[]): (readonly [number | undefined, number | undefined])[] | undefined {
  if (a.length * b.length > MAX_ALIGNED || a.length === 0 || b.length === 0) return undefined;
  const ka = a.map(identity);
  const kb = b.map(identity);
  if (ka.includes(undefined) || kb.includes(undefined)) return undefined;
  const n = a.length;
  const m = b.length;
  // lengths of common subsequences of the suffixes, row by row
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = ka[i] === kb[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const pairs: (readonly [number | undefined, number | undefined])[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (ka[i] === kb[j]) pairs.push([i++, j++]);
    else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) pairs.push([i++, undefined]);
    else pairs.push([undefined, j++]);
  }
  while (i < n) pairs.push([i++, undefined]);
  while (j < m) pairs.push([undefined, j++]);
  return pairs;
}

/** Every difference between the recording `a` and our answer `b`; none when they are equal under the rules. */
export function diffValues(a: JsonNode, b: JsonNode, mode: CompareMode, ignore: IgnoreRules): RawDifference[] {
  const walk = new Walk(mode, ignore);
  walk.node(a, b, { steps: [] });
  return walk.out;
}
