// Which characters of two values differ, as jest-diff marks them inside a changed line: the common
// head and tail, then a character-level diff of the middle (a longest common subsequence) whose
// one-character coincidences are folded into the changes around them (diff-match-patch's semantic
// cleanup), so two hashes read as two runs, not as confetti. Each side is then a list of runs, the
// differing ones marked, that a report renders: carets under a text line, <del>/<ins> in HTML.
// Long equal runs can be cut to their length; a marked run never is. Pure, no dependencies.

export interface Part {
  readonly op: 'equal' | 'delete' | 'insert';
  readonly text: string;
}

/** A stretch of one side: the same on both sides, or marked as differing; or, where a long equal run was cut for display, how many characters were left out. */
export interface Run {
  readonly text: string;
  readonly marked: boolean;
  /** A place of an equal run cut short (its `text` empty): the number of characters left out. */
  readonly cut?: number;
}

/** Middles with more pairs of characters than this are one change each way (the table would weigh megabytes). */
const MAX_CELLS = 1_000_000;

/** Adjacent parts of the same kind as one, empty ones dropped; within a change, the deletion first. */
function merged(parts: readonly Part[]): Part[] {
  const out: Part[] = [];
  let del = '';
  let ins = '';
  const flush = (): void => {
    if (del !== '') out.push({ op: 'delete', text: del });
    if (ins !== '') out.push({ op: 'insert', text: ins });
    del = ins = '';
  };
  for (const p of parts) {
    if (p.text === '') continue;
    if (p.op === 'delete') del += p.text;
    else if (p.op === 'insert') ins += p.text;
    else {
      flush();
      const last = out.at(-1);
      if (last?.op === 'equal') out[out.length - 1] = { op: 'equal', text: last.text + p.text };
      else out.push(p);
    }
  }
  flush();
  return out;
}

/** A longest common subsequence of `a` and `b` as parts. */
function lcs(a: string, b: string): Part[] {
  const n = a.length;
  const m = b.length;
  // lengths of common subsequences of the suffixes (never more than min(n, m) ≤ 1000 under MAX_CELLS)
  const table = new Uint16Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? table[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(table[(i + 1) * (m + 1) + j]!, table[i * (m + 1) + j + 1]!);
    }
  }
  const parts: Part[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      parts.push({ op: 'equal', text: a[i]! });
      i++;
      j++;
    }
    else if (table[(i + 1) * (m + 1) + j]! >= table[i * (m + 1) + j + 1]!) parts.push({ op: 'delete', text: a[i++]! });
    else parts.push({ op: 'insert', text: b[j++]! });
  }
  if (i < n) parts.push({ op: 'delete', text: a.slice(i) });
  if (j < m) parts.push({ op: 'insert', text: b.slice(j) });
  return merged(parts);
}

/**
 * An equal part between two changes that is no longer than the larger side of the change before it
 * and of the change after it says nothing a reader can use: it becomes part of both (diff-match-patch
 * cleanupSemantic's rule), until none is left.
 */
function folded(parts: Part[]): Part[] {
  for (;;) {
    let changed = false;
    for (let k = 1; k < parts.length - 1; k++) {
      const p = parts[k]!;
      if (p.op !== 'equal') continue;
      const around = (from: number, step: number): number => {
        let del = 0;
        let ins = 0;
        for (let i = from; i >= 0 && i < parts.length && parts[i]!.op !== 'equal'; i += step) {
          if (parts[i]!.op === 'delete') del += parts[i]!.text.length;
          else ins += parts[i]!.text.length;
        }
        return Math.max(del, ins);
      };
      const before = around(k - 1, -1);
      const after = around(k + 1, 1);
      if (before > 0 && after > 0 && p.text.length <= before && p.text.length <= after) {
        parts = merged([...parts.slice(0, k), { op: 'delete', text: p.text }, { op: 'insert', text: p.text }, ...parts.slice(k + 1)]);
        changed = true;
        break;
      }
    }
    if (!changed) return parts;
  }
}

/** The parts of `a` → `b`: equal, deleted (only `a` has it), inserted (only `b`). Empty when they are equal. */
export function charDiff(a: string, b: string): Part[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle: Part[] =
    midA === '' || midB === '' || midA.length * midB.length > MAX_CELLS
      ? [{ op: 'delete', text: midA }, { op: 'insert', text: midB }]
      : folded(lcs(midA, midB));
  return merged([{ op: 'equal', text: a.slice(0, head) }, ...middle, { op: 'equal', text: a.slice(a.length - tail) }]);
}

/** Whether the two sides have anything in common to mark the differences against. */
export const hasCommon = (parts: readonly Part[]): boolean => parts.some((p) => p.op === 'equal');

/** One side of `parts` (`a`: the equal and deleted parts; `b`: the equal and inserted), the differing runs marked. */
export function sideRuns(parts: readonly Part[], side: 'a' | 'b'): Run[] {
  const mine = side === 'a' ? 'delete' : 'insert';
  return parts.filter((p) => p.op === 'equal' || p.op === mine).map((p) => ({ text: p.text, marked: p.op !== 'equal' }));
}

/**
 * `runs` with each equal run longer than it needs cut to `context` characters beside each marked run
 * (before the first and after the last, only on the marked side): a run `{ cut: n }` stands where n
 * characters were left out. Marked runs are kept whole.
 */
export function elided(runs: readonly Run[], context: number): Run[] {
  return runs.flatMap((r, i): Run[] => {
    if (r.marked) return [r];
    const keepHead = i > 0 ? context : 0;
    const keepTail = i < runs.length - 1 ? context : 0;
    const cut = r.text.length - keepHead - keepTail;
    // cutting fewer characters than the note of the cut takes saves nothing
    if (cut <= 12) return [r];
    const parts: Run[] = [{ text: '', marked: false, cut }];
    if (keepHead > 0) parts.unshift({ text: r.text.slice(0, keepHead), marked: false });
    if (keepTail > 0) parts.push({ text: r.text.slice(r.text.length - keepTail), marked: false });
    return parts;
  });
}
