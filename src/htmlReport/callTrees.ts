// The call trees of a failing case or a differing pair, each side's beside the other's, with the
// frames and fields that differ marked: the comparison engine's differences carry their location,
// whose path's `calls[i]` steps below a tree's top call lead to the frame (what is left is the field)
// and whose heading's places above the frames title the tree.
import { placesText, relative } from '../compare/location.ts';
import type { PathStep, PlacedDifference } from '../compare/types.ts';
import type { Frame } from '../ui/frame.ts';
import type { ReportTree } from '../ui/reportData.ts';

/** A callTracer frame: what go-ethereum's callFrame always has. */
function isFrame(value: unknown): value is Frame {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v['type'] === 'string' && typeof v['from'] === 'string' && typeof v['gasUsed'] === 'string' && typeof v['input'] === 'string';
}

/** Every top call in an answer (a transaction's, each of a block's, each of a batch's), with its steps. */
function topCalls(value: unknown, steps: PathStep[], out: Map<string, PathStep[]>): void {
  if (isFrame(value)) out.set(JSON.stringify(steps), steps);
  else if (Array.isArray(value)) value.forEach((item, i) => topCalls(item, [...steps, i], out));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) topCalls(item, [...steps, key], out);
}

const startsWith = (steps: readonly PathStep[], prefix: readonly PathStep[]): boolean => prefix.every((s, i) => steps[i] === s);

/** The frame key and field of a difference below a tree's top call. */
function frameField(rest: readonly PathStep[]): { key: string; field: string } {
  const indices: number[] = [];
  let i = 0;
  while (rest[i] === 'calls' && typeof rest[i + 1] === 'number') {
    indices.push(rest[i + 1] as number);
    i += 2;
  }
  const field = rest.length === i ? '(the whole call)' : relative(rest.slice(i));
  return { key: indices.join('.'), field };
}

/** The tree at `prefix` on each side, marked with those of `differences` below it; undefined when none is. */
export function treeAt(prefix: readonly PathStep[], frames: readonly [unknown, unknown], differences: readonly PlacedDifference[], title?: string): ReportTree | undefined {
  const marks: Record<string, string[]> = {};
  let heading: string | undefined;
  for (const d of differences) {
    const { steps, places } = d.location;
    if (!startsWith(steps, prefix)) continue;
    const { key, field } = frameField(steps.slice(prefix.length));
    const fields = (marks[key] ??= []);
    if (!fields.includes(field)) fields.push(field);
    // the heading above the frames: `tx 0 (0xab…)` of `tx 0 (0xab…) › CALL Vault.deposit(…)`
    heading ??= placesText(places.filter((p) => p.kind !== 'frame'));
  }
  if (heading === undefined) return undefined;
  const side = (frame: unknown): Frame | null => (isFrame(frame) ? frame : null);
  return { title: title ?? (heading === '' ? 'call tree' : heading), sides: [side(frames[0]), side(frames[1])], marks };
}

/** The value at `steps` of a parsed answer. */
function at(value: unknown, steps: readonly PathStep[]): unknown {
  let v = value;
  for (const s of steps) v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[s] : undefined;
  return v;
}

/** The call trees of two answers (JSON texts) in which `differences` lie, in the answers' order. */
export function treesIn(expected: string | undefined, got: string | undefined, differences: readonly PlacedDifference[]): ReportTree[] {
  const parse = (text: string | undefined): unknown => {
    try {
      return text === undefined ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const [a, b] = [parse(expected), parse(got)];
  const tops = new Map<string, PathStep[]>();
  topCalls(a, [], tops);
  topCalls(b, [], tops);
  const trees: ReportTree[] = [];
  for (const steps of tops.values()) {
    const tree = treeAt(steps, [at(a, steps), at(b, steps)], differences);
    if (tree !== undefined) trees.push(tree);
  }
  return trees;
}
