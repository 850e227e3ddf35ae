// "Did you mean": the known word nearest a mistyped one, when it is near enough to be what was meant
// (an edit distance of at most a third of the word, and at most 2; or the word a prefix of it).
// Pure; argv.ts and args.ts add it to their usage errors (options, commands, cache subcommands).

/** Edit distance with adjacent transpositions (`--prot` is one edit from `--port`), two rows kept. */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) next[j] = Math.min(next[j]!, before[j - 2]! + 1);
    }
    before = row;
    row = next;
  }
  return row[b.length]!;
}

/** The nearest of `known` to `word`, or undefined when none is near. */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: { word: string; d: number } | undefined;
  for (const candidate of known) {
    const d = candidate.startsWith(word) && word.length >= 3 ? 0.5 : distance(word, candidate);
    if (best === undefined || d < best.d) best = { word: candidate, d };
  }
  if (best === undefined) return undefined;
  return best.d <= Math.min(2, Math.max(1, Math.floor(word.replace(/^-+/, '').length / 3))) ? best.word : undefined;
}

/** ` (did you mean X?)`, or nothing. */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = nearest(word, known);
  return near === undefined || near === word ? '' : ` (did you mean ${near}?)`;
}
