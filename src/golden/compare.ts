// Recorded response vs our answer. `bytes` (the default) is the contract: key order, escapes and
// number spellings count. `semantic` compares parsed values with object keys matched by name, for
// recordings that were pretty-printed or key-sorted (Erigon's rpc-tests). Either way a mismatch
// names the JSON path of the first difference in document order, with both values there.
import { indexStep, keyStep, member, parseWhole, shortText, type JsonNode } from './jsonText.ts';

export type CompareMode = 'bytes' | 'semantic';

export interface Difference {
  /** JSON path of the first difference, `$` for the whole body. */
  readonly path: string;
  /** Both sides at `path`, as short compact JSON (or a phrase such as `no answer`). */
  readonly expected: string;
  readonly got: string;
  /** What the values alone do not say (key order, formatting). */
  readonly note?: string;
  /** Bytes mode: the first differing byte and a short window of each side around it. */
  readonly context?: ByteContext;
}

export interface ByteContext {
  /** UTF-8 offset of the first byte that differs. */
  readonly offset: number;
  readonly expected: string;
  readonly got: string;
}

const NO_ANSWER = 'no answer';
const MISSING = 'missing';
const BEFORE = 24;
const AFTER = 40;

const visible = (text: string): string => text.replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');

function window(text: string, at: number): string {
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(text.length, at + AFTER);
  return `${start > 0 ? '…' : ''}${visible(text.slice(start, end))}${end < text.length ? '…' : ''}`;
}

/** Where two texts first differ, with a window of each. */
export function byteContext(expected: string, got: string): ByteContext {
  let i = 0;
  while (i < expected.length && i < got.length && expected[i] === got[i]) i++;
  return { offset: new TextEncoder().encode(expected.slice(0, i)).length, expected: window(expected, i), got: window(got, i) };
}

type Found = Omit<Difference, 'context'>;

const text = (node: JsonNode | undefined): string => (node === undefined ? MISSING : shortText(node.raw));

/** Numbers by value: integers exactly, others as doubles (`1.0` equals `1`, `1e2` equals `100`). */
function sameNumber(a: string, b: string): boolean {
  const integer = /^-?\d+$/;
  if (integer.test(a) && integer.test(b)) return BigInt(a) === BigInt(b);
  return Number(a) === Number(b);
}

function sameLeaf(a: JsonNode, b: JsonNode, mode: CompareMode): boolean {
  if (mode === 'bytes') return a.raw === b.raw;
  if (a.t === 'string' && b.t === 'string') return a.value === b.value;
  if (a.t === 'number' && b.t === 'number') return sameNumber(a.raw, b.raw);
  return a.t === b.t && a.raw === b.raw;
}

function diffArrays(a: readonly JsonNode[], b: readonly JsonNode[], path: string, mode: CompareMode): Found | undefined {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const found = diffNodes(a[i]!, b[i]!, indexStep(path, i), mode);
    if (found !== undefined) return found;
  }
  if (a.length === b.length) return undefined;
  const i = Math.min(a.length, b.length);
  return { path: indexStep(path, i), expected: text(a[i]), got: text(b[i]), note: `expected ${a.length} items, got ${b.length}` };
}

function diffObjects(a: JsonNode & { t: 'object' }, b: JsonNode & { t: 'object' }, path: string, mode: CompareMode): Found | undefined {
  if (mode === 'bytes') {
    for (let i = 0; i < Math.min(a.entries.length, b.entries.length); i++) {
      const [ka, va] = a.entries[i]!;
      const [kb, vb] = b.entries[i]!;
      if (ka !== kb) {
        const note = `key ${i + 1} of the object is ${JSON.stringify(ka)} in the recording, ${JSON.stringify(kb)} in ours`;
        return { path: keyStep(path, ka), expected: text(va), got: text(member(b, ka)), note };
      }
      const found = diffNodes(va, vb, keyStep(path, ka), mode);
      if (found !== undefined) return found;
    }
    const [ka, va] = a.entries[b.entries.length] ?? [];
    const [kb, vb] = b.entries[a.entries.length] ?? [];
    if (ka !== undefined) return { path: keyStep(path, ka), expected: text(va), got: MISSING };
    if (kb !== undefined) return { path: keyStep(path, kb), expected: MISSING, got: text(vb) };
    return undefined;
  }
  const keys = [...new Set([...a.entries.map(([k]) => k), ...b.entries.map(([k]) => k)])];
  for (const key of keys) {
    const va = member(a, key);
    const vb = member(b, key);
    if (va === undefined || vb === undefined) return { path: keyStep(path, key), expected: text(va), got: text(vb) };
    const found = diffNodes(va, vb, keyStep(path, key), mode);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The first difference between two parsed values, in the recording's document order. */
export function diffNodes(a: JsonNode, b: JsonNode, path: string, mode: CompareMode): Found | undefined {
  if (a.t === 'object' && b.t === 'object') return diffObjects(a, b, path, mode);
  if (a.t === 'array' && b.t === 'array') return diffArrays(a.items, b.items, path, mode);
  if (a.t !== 'object' && a.t !== 'array' && sameLeaf(a, b, mode)) return undefined;
  return { path, expected: text(a), got: text(b) };
}

function find(expected: string | undefined, got: string | undefined, mode: CompareMode): Found | undefined {
  if (expected === undefined || got === undefined) {
    if (expected === got) return undefined;
    return { path: '$', expected: expected === undefined ? NO_ANSWER : shortText(expected), got: got === undefined ? NO_ANSWER : shortText(got) };
  }
  if (mode === 'bytes' && expected === got) return undefined;
  const a = parseWhole(expected);
  const b = parseWhole(got);
  if (a === undefined || b === undefined) {
    const note = a === undefined ? 'the recording is not one JSON value' : 'our answer is not one JSON value';
    return { path: '$', expected: shortText(expected), got: shortText(got), note };
  }
  const found = diffNodes(a, b, '$', mode);
  if (found !== undefined || mode === 'semantic') return found;
  return { path: '$', expected: shortText(expected), got: shortText(got), note: 'same values, different bytes (whitespace)' };
}

/** undefined when `got` matches the recording; a response of `undefined` is no answer at all. */
export function compare(expected: string | undefined, got: string | undefined, mode: CompareMode): Difference | undefined {
  const found = find(expected, got, mode);
  if (found === undefined || mode === 'semantic' || expected === undefined || got === undefined) return found;
  return { ...found, context: byteContext(expected, got) };
}
