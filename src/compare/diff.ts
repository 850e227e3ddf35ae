// Every difference between two parsed JSON values, in the recording's document order. `bytes` (the
// contract) compares leaves by their source text, so escapes and number spellings count, and names
// a change of key order once per object; `semantic` compares leaves by value and ignores key order
// (recordings that were key-sorted, such as Erigon's rpc-tests). Object members are matched by name
// either way, so one moved or added member is one difference, not every member after it.
import type { JsonNode } from '../rpc/rawJson.ts';
import { isIgnored, type IgnoreRules } from './ignore.ts';
import type { PathStep } from './types.ts';

export type CompareMode = 'bytes' | 'semantic';


export interface RawDifference {
  readonly steps: readonly PathStep[];
  /** undefined: missing on that side. */
  readonly expected: JsonNode | undefined;
  readonly got: JsonNode | undefined;
  readonly note?: string;
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

class Walk {
  readonly out: RawDifference[] = [];
  constructor(
    private readonly mode: CompareMode,
    private readonly ignore: IgnoreRules,
  ) {}

  node(a: JsonNode, b: JsonNode, steps: PathStep[]): void {
    if (a.t === 'object' && b.t === 'object') return this.object(a, b, steps);
    if (a.t === 'array' && b.t === 'array') return this.array(a.items, b.items, steps);
    if (a.t === 'object' || a.t === 'array' || b.t === 'object' || b.t === 'array') {
      this.out.push({ steps, expected: a, got: b });
      return;
    }
    if (this.mode === 'bytes' ? a.raw === b.raw : sameValue(a, b)) return;
    const spelling = this.mode === 'bytes' && sameValue(a, b) ? { note: `the same ${a.t === 'string' ? 'string' : 'number'}, written differently` } : {};
    this.out.push({ steps, expected: a, got: b, ...spelling });
  }

  private object(a: Obj, b: Obj, steps: PathStep[]): void {
    const ma = members(a);
    const mb = members(b);
    const keep = (key: string): boolean => !isIgnored(this.ignore, [...steps, key]);
    const keysA = [...ma.keys()].filter(keep);
    const keysB = [...mb.keys()].filter(keep);
    if (this.mode === 'bytes') {
      const common = new Set(keysA.filter((k) => mb.has(k)));
      const orderA = keysA.filter((k) => common.has(k));
      const orderB = keysB.filter((k) => common.has(k));
      if (orderA.some((k, i) => k !== orderB[i])) {
        this.out.push({ steps, expected: undefined, got: undefined, note: 'the same keys in another order', order: { expected: orderA, got: orderB } });
      }
    }
    for (const key of keysA) {
      const vb = mb.get(key);
      if (vb === undefined) this.out.push({ steps: [...steps, key], expected: ma.get(key), got: undefined });
      else this.node(ma.get(key)!, vb, [...steps, key]);
    }
    for (const key of keysB) if (!ma.has(key)) this.out.push({ steps: [...steps, key], expected: undefined, got: mb.get(key) });
  }

  private array(a: readonly JsonNode[], b: readonly JsonNode[], steps: PathStep[]): void {
    const longest = Math.max(a.length, b.length);
    const note = a.length === b.length ? {} : { note: `the recording has ${a.length} items, ours ${b.length}` };
    for (let i = 0; i < longest; i++) {
      const at = [...steps, i];
      if (isIgnored(this.ignore, at)) continue;
      const [va, vb] = [a[i], b[i]];
      if (va !== undefined && vb !== undefined) this.node(va, vb, at);
      else this.out.push({ steps: at, expected: va, got: vb, ...note });
    }
  }
}

/** Every difference between the recording `a` and our answer `b`; none when they are equal under the rules. */
export function diffValues(a: JsonNode, b: JsonNode, mode: CompareMode, ignore: IgnoreRules): RawDifference[] {
  const walk = new Walk(mode, ignore);
  walk.node(a, b, []);
  return walk.out;
}
