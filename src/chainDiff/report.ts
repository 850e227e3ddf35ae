// `blocktrace diff` as people read it: for each pair of transactions that differs, where the call
// trees part (the first difference of callTracer, on its frame path) and what else of the tree
// differs, the logs that differ decoded, the state the pair leaves behind, and the gas on each side;
// identical pairs are counted; a gas table (as `forge snapshot --diff`) when any gas differs. And
// the same as one JSON document (`--json`).
import { differenceLines } from '../compare/lines.ts';
import { groupByPlace, type PlacedDifference } from '../compare/types.ts';
import type { ChainDiff, TxPair } from './diffChains.ts';

const short = (hash: string | undefined): string => (hash === undefined ? '—' : `${hash.slice(0, 10)}…`);
const grouped = (n: bigint): string => n.toLocaleString('en');

/** The heading below the transaction: its frame path or account, without the `tx N (…)` the pair's header already says. */
const below = (d: PlacedDifference): string => d.where.replace(/^tx \d+(?: \([^)]*\))?(?: › )?/, '') || '(the transaction)';

function gasLine(pair: TxPair): string {
  const [a, b] = pair.gasUsed;
  if (a === undefined || b === undefined) return `gas used ${a === undefined ? '—' : grouped(a)} → ${b === undefined ? '—' : grouped(b)}`;
  const delta = b - a;
  return `gas used ${grouped(a)} → ${grouped(b)}${delta === 0n ? ' (the same)' : ` (${delta > 0n ? '+' : ''}${grouped(delta)})`}`;
}

/**
 * The state differences already printed, by account, field and both values, with the pair that
 * printed them: a difference a pair inherits (the code of a contract deployed differently, the
 * state an earlier pair left) is named once and then referred to.
 */
type Shown = Map<string, string>;
const stateKey = (d: PlacedDifference): string => `${below(d).replace(/^(pre|post) › /, '')}\n${d.field}\n${d.expected}\n${d.got}`;

function stateLines(pair: TxPair, sides: readonly ['A', 'B'], shown: Shown): string[] {
  const lines: string[] = [];
  const here = `block ${pair.block} tx ${pair.index}`;
  for (const group of groupByPlace(pair.state)) {
    lines.push(`    ${below(group.differences[0]!)}`);
    const earlier = new Map<string, string[]>();
    for (const d of group.differences) {
      const before = shown.get(stateKey(d));
      if (before === undefined) {
        shown.set(stateKey(d), here);
        lines.push(...differenceLines(d, '      ', sides));
      } else {
        earlier.set(before, [...(earlier.get(before) ?? []), d.field]);
      }
    }
    for (const [before, fields] of earlier) lines.push(`      ${fields.join(', ')}: as at ${before}`);
  }
  return lines;
}

function pairLines(pair: TxPair, sides: readonly ['A', 'B'], shown: Shown): string[] {
  const lines = [`block ${pair.block} tx ${pair.index} (${short(pair.hashes[0])} | ${short(pair.hashes[1])}): ${gasLine(pair)}`];
  if (pair.missing !== undefined) {
    lines.push(`  only in ${pair.missing === 'a' ? sides[1] : sides[0]}`);
    return lines;
  }
  // the first frame (in document order) that differs, with everything that differs in it
  const at = pair.calls[0]?.where;
  const first = pair.calls.filter((d) => d.where === at);
  const rest = pair.calls.filter((d) => d.where !== at);
  if (first.length > 0) {
    lines.push(`  the call trees part at ${below(first[0]!)}`, ...first.flatMap((d) => differenceLines(d, '    ', sides)));
    if (rest.length > 0) lines.push(`    (${rest.length} more difference${rest.length === 1 ? '' : 's'} in the call tree below)`);
  }
  const logs = pair.calls.filter((d) => /^logs\[\d+\]/.test(d.field) && d.decoded !== undefined);
  if (logs.length > 0) {
    lines.push('  logs that differ:');
    for (const d of logs) lines.push(`    ${below(d)} › ${d.field.replace(/\..*$/, '')}: ${d.decoded!.expected ?? '?'} → ${d.decoded!.got ?? '?'}`);
  }
  if (rest.length > 0) {
    lines.push('  the rest of the call tree:');
    for (const group of groupByPlace(rest)) lines.push(`    ${below(group.differences[0]!)}`, ...group.differences.flatMap((d) => differenceLines(d, '      ', sides)));
  }
  if (pair.state.length > 0) lines.push('  the state it leaves:', ...stateLines(pair, sides, shown));
  return lines;
}

/** The whole report, its last line `N identical, M differ`; ends with a newline. */
export function diffText(diff: ChainDiff, paths: readonly [string, string]): string {
  const sides = ['A', 'B'] as const;
  const lines: string[] = [`A: ${paths[0]}`, `B: ${paths[1]}`, ''];
  for (const s of diff.skipped) lines.push(`skipped block ${s.block}: ${s.reason}`);
  const shown: Shown = new Map();
  for (const pair of diff.differing) lines.push(...pairLines(pair, sides, shown), '');
  const gasDiffers = diff.gas.filter((g) => g.a !== g.b);
  if (gasDiffers.length > 0) {
    lines.push(`gas used (${sides[0]} → ${sides[1]}):`);
    for (const g of diff.gas) {
      const delta = g.a !== undefined && g.b !== undefined ? g.b - g.a : undefined;
      const pct = delta !== undefined && g.a! > 0n ? ` (${delta > 0n ? '+' : ''}${((Number(delta) / Number(g.a)) * 100).toFixed(3)}%)` : '';
      const change = delta === undefined ? '' : delta === 0n ? '' : `  ${delta > 0n ? '+' : ''}${grouped(delta)}${pct}`;
      lines.push(`  block ${g.block} tx ${g.index}  ${g.a === undefined ? '—' : grouped(g.a)} → ${g.b === undefined ? '—' : grouped(g.b)}${change}`);
    }
    lines.push('');
  }
  const total = diff.identical + diff.differing.length;
  lines.push(`${total} transaction pairs in ${diff.blocks.length} blocks: ${diff.identical} identical, ${diff.differing.length} differ`);
  return `${lines.join('\n')}\n`;
}

/** `--json`: the pairs that differ with every difference, the counts, the gas of every pair. */
export function diffJson(diff: ChainDiff, paths: readonly [string, string]): string {
  const big = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);
  return `${JSON.stringify({ a: paths[0], b: paths[1], blocks: diff.blocks, skipped: diff.skipped, identical: diff.identical, differ: diff.differing.length, pairs: diff.differing, gas: diff.gas }, big)}\n`;
}
