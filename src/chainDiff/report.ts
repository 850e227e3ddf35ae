// `blocktrace diff` as people read it: for each pair of transactions that differs, where the call
// trees part (the first difference of callTracer, on its frame path) and what else of the tree
// differs, the logs that differ decoded, the state the pair leaves behind, and the gas on each side;
// then the transactions only one side has; identical pairs are counted; a gas table (as `forge
// snapshot --diff`) when any gas differs. And the same as one JSON document (`--json`).
import { differenceJson, placesText, relative } from '../compare/location.ts';
import { differenceLines } from '../compare/lines.ts';
import { groupByPlace, type Place, type PlacedDifference } from '../compare/types.ts';
import type { ChainDiff, DifferenceKinds, TxPair } from './diffChains.ts';

const short = (hash: string | undefined): string => (hash === undefined ? '—' : `${hash.slice(0, 10)}…`);
const grouped = (n: bigint): string => n.toLocaleString('en');

/** The places below the transaction: its frame path or account, without the `tx N (…)` the pair's header already says. */
const belowTx = (d: PlacedDifference): readonly Place[] => {
  const { places } = d.location;
  return places[0]?.kind === 'tx' ? places.slice(1) : places;
};
const below = (d: PlacedDifference): string => placesText(belowTx(d)) || '(the transaction)';

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
const stateKey = (d: PlacedDifference): string => {
  const places = belowTx(d);
  const account = places[0]?.kind === 'part' && (places[0].name === 'pre' || places[0].name === 'post') ? places.slice(1) : places;
  return `${placesText(account)}\n${d.field}\n${d.expected}\n${d.got}`;
};

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

/** `block 9 tx 13`, and B's place when it is another: `block 9 tx 13 → tx 12`, `block 9 tx 13 → block 10 tx 0`. */
export function pairPlace(pair: TxPair): string {
  const [a, b] = pair.at;
  const here = `block ${pair.block} tx ${pair.index}`;
  if (a === undefined || b === undefined || (a.block === b.block && a.index === b.index)) return here;
  return `${here} → ${a.block === b.block ? '' : `block ${b.block} `}tx ${b.index}`;
}

/** What differs in a pair, in a few words: `status, call tree (3), logs (1), state (2), gas +12`. */
export function kindsText(kinds: DifferenceKinds): string {
  const count = (name: string, n: number | undefined): string[] => (n === undefined ? [] : [`${name} (${n})`]);
  return [
    ...(kinds.status === true ? ['status'] : []),
    ...count('call tree', kinds.calls),
    ...count('logs', kinds.logs),
    ...count('state', kinds.state),
    ...(kinds.gas === undefined ? [] : [`gas ${kinds.gas > 0n ? '+' : ''}${grouped(kinds.gas)}`]),
  ].join(', ');
}

/** The log of a frame a difference is in (`logs[2]`; the field itself when it is the whole log), or undefined. */
function logOf(d: PlacedDifference): string | undefined {
  const { steps } = d.location.field;
  if (steps[0] !== 'logs' || typeof steps[1] !== 'number') return undefined;
  return steps.length === 2 ? d.field : relative(steps.slice(0, 2));
}

function pairLines(pair: TxPair, sides: readonly ['A', 'B'], shown: Shown): string[] {
  const lines = [`${pairPlace(pair)} (${short(pair.hashes[0])} | ${short(pair.hashes[1])}): ${gasLine(pair)}`];
  // the first frame (in document order) that differs, with everything that differs in it
  const at = pair.calls[0]?.where;
  const first = pair.calls.filter((d) => d.where === at);
  const rest = pair.calls.filter((d) => d.where !== at);
  if (first.length > 0) {
    lines.push(`  the call trees part at ${below(first[0]!)}`, ...first.flatMap((d) => differenceLines(d, '    ', sides)));
    if (rest.length > 0) lines.push(`    (${rest.length} more difference${rest.length === 1 ? '' : 's'} in the call tree below)`);
  }
  const logs = pair.calls.filter((d) => logOf(d) !== undefined && d.decoded !== undefined);
  if (logs.length > 0) {
    lines.push('  logs that differ:');
    for (const d of logs) lines.push(`    ${below(d)} › ${logOf(d)}: ${d.decoded!.expected ?? '?'} → ${d.decoded!.got ?? '?'}`);
  }
  if (rest.length > 0) {
    lines.push('  the rest of the call tree:');
    for (const group of groupByPlace(rest)) lines.push(`    ${below(group.differences[0]!)}`, ...group.differences.flatMap((d) => differenceLines(d, '      ', sides)));
  }
  if (pair.state.length > 0) lines.push('  the state it leaves:', ...stateLines(pair, sides, shown));
  return lines;
}

/** The transactions only one side has, each on one line with its sender, nonce and gas. */
function oneSidedLines(diff: ChainDiff, sides: readonly ['A', 'B']): string[] {
  const lines: string[] = [];
  for (const [missing, side, other] of [['b', sides[0], sides[1]], ['a', sides[1], sides[0]]] as const) {
    const txs = diff.oneSided.filter((t) => t.missing === missing);
    if (txs.length === 0) continue;
    lines.push(`only in ${side} (${other} has no transaction of the same sender and nonce in the blocks compared):`);
    for (const t of txs) {
      const hash = t.hashes[missing === 'b' ? 0 : 1];
      const gas = t.gasUsed[missing === 'b' ? 0 : 1];
      const who = t.sender === undefined ? 'no sender' : `${t.sender} nonce ${t.nonce ?? '?'}`;
      lines.push(`  block ${t.block} tx ${t.index} (${short(hash)}): ${who}, gas used ${gas === undefined ? '—' : grouped(gas)}`);
    }
    lines.push('');
  }
  return lines;
}

/** How many transactions only A has, and only B. */
const oneSidedCounts = (diff: ChainDiff): { onlyA: number; onlyB: number } => ({
  onlyA: diff.oneSided.filter((t) => t.missing === 'b').length,
  onlyB: diff.oneSided.filter((t) => t.missing === 'a').length,
});

/** The blocks only one side has, as ranges: `only A has blocks 10–12, 15`. */
export function oneSidedBlockLines(diff: ChainDiff): string[] {
  const lines: string[] = [];
  for (const [only, side] of [['a', 'A'], ['b', 'B']] as const) {
    const ranges: [bigint, bigint][] = [];
    for (const { block } of diff.oneSidedBlocks.filter((o) => o.only === only)) {
      const last = ranges.at(-1);
      if (last !== undefined && last[1] + 1n === block) last[1] = block;
      else ranges.push([block, block]);
    }
    if (ranges.length === 0) continue;
    const n = ranges.reduce((sum, [from, to]) => sum + Number(to - from + 1n), 0);
    lines.push(`only ${side} has block${n === 1 ? '' : 's'} ${ranges.map(([from, to]) => (from === to ? `${from}` : `${from}–${to}`)).join(', ')}`);
  }
  return lines;
}

/** The counts: `22 transaction pairs in 1 blocks: 12 identical, 10 differ; 1 only in A, 1 only in B`. */
export function diffHeadline(diff: ChainDiff): string {
  const { onlyA, onlyB } = oneSidedCounts(diff);
  const total = diff.identical + diff.differing.length;
  return `${total} transaction pairs in ${diff.blocks.length} blocks: ${diff.identical} identical, ${diff.differing.length} differ; ${onlyA} only in A, ${onlyB} only in B`;
}

/** The whole report, its last line the counts (diffHeadline); ends with a newline. */
export function diffText(diff: ChainDiff, paths: readonly [string, string]): string {
  const sides = ['A', 'B'] as const;
  const lines: string[] = [`A: ${paths[0]}`, `B: ${paths[1]}`, ''];
  for (const s of diff.skipped) lines.push(`skipped block ${s.block}: ${s.reason}`);
  // their transactions pair where the other side has them in another block, else are one side's
  lines.push(...oneSidedBlockLines(diff));
  const shown: Shown = new Map();
  for (const pair of diff.differing) lines.push(...pairLines(pair, sides, shown), '');
  lines.push(...oneSidedLines(diff, sides));
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
  lines.push(diffHeadline(diff));
  return `${lines.join('\n')}\n`;
}

/** The version of `--json`'s schema (docs/cli.md; its differences as in docs/ci.md, "The JSON report"). */
export const DIFF_JSON_VERSION = 2;

/** `--json`: the pairs that differ with every difference, then the one-sided transactions (`missing`); the counts; the gas of every pair. */
export function diffJson(diff: ChainDiff, paths: readonly [string, string]): string {
  const big = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);
  const pairs = [...diff.differing, ...diff.oneSided].map((p) => ({ ...p, calls: p.calls.map(differenceJson), state: p.state.map(differenceJson) }));
  return `${JSON.stringify({ version: DIFF_JSON_VERSION, a: paths[0], b: paths[1], blocks: diff.blocks, skipped: diff.skipped, oneSidedBlocks: diff.oneSidedBlocks, identical: diff.identical, differ: diff.differing.length, ...oneSidedCounts(diff), pairs, gas: diff.gas }, big)}\n`;
}
