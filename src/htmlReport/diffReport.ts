// The HTML report's data for `diff`: the two chains and the counts, then each pair of transactions
// that differs with both call trees side by side (the frames and fields that differ marked), the
// differences of the call tree and of the state it leaves in tables, and the gas table.
import type { ChainDiff } from '../chainDiff/diffChains.ts';
import type { GasRow, ReportData, ReportSection } from '../ui/reportData.ts';
import { treeAt } from './callTrees.ts';
import { reportDifference } from './htmlReport.ts';

export interface DiffRun {
  readonly paths: readonly [string, string];
  /** Each differing pair's callTracer answer on A and on B (its `result`), in the order of `diff.differing`. */
  readonly trees: readonly (readonly [unknown, unknown])[];
  readonly abis: ReportData['abis'];
  readonly labels: ReportData['labels'];
}

const grouped = (n: bigint | undefined): string => (n === undefined ? '—' : n.toLocaleString('en'));

export function diffReportData(diff: ChainDiff, run: DiffRun): ReportData {
  const sections: ReportSection[] = diff.differing.map((pair, i) => {
    const [a, b] = pair.gasUsed;
    const delta = a !== undefined && b !== undefined && a !== b ? ` (${b > a ? '+' : ''}${grouped(b - a)})` : '';
    // the pair's differences are placed in debug_traceBlockByNumber's answer: `$.result[index].result…`
    const tree = treeAt(['result', pair.index, 'result'], run.trees[i] ?? [null, null], pair.calls, 'Call trees');
    return {
      id: `block-${pair.block}-tx-${pair.index}`,
      title: `block ${pair.block} tx ${pair.index}`,
      lines: [
        `A ${pair.hashes[0] ?? '—'}`,
        `B ${pair.hashes[1] ?? '—'}`,
        pair.missing === undefined ? `gas used ${grouped(a)} → ${grouped(b)}${delta}` : `only in ${pair.missing === 'a' ? 'B' : 'A'}`,
      ],
      trees: tree === undefined ? [] : [tree],
      tables: [
        ...(pair.calls.length === 0 ? [] : [{ title: 'Call tree differences', differences: pair.calls.map(reportDifference) }]),
        ...(pair.state.length === 0 ? [] : [{ title: 'State differences (prestateTracer, diff mode)', differences: pair.state.map(reportDifference) }]),
      ],
    };
  });
  const gas: GasRow[] = diff.gas.map((g) => ({ label: `block ${g.block} tx ${g.index}`, ...(g.a === undefined ? {} : { a: String(g.a) }), ...(g.b === undefined ? {} : { b: String(g.b) }) }));
  return {
    title: `diff ${run.paths[0]} ${run.paths[1]}`,
    sides: ['A', 'B'],
    summary: [
      { name: 'A', value: run.paths[0] },
      { name: 'B', value: run.paths[1] },
      ...diff.skipped.map((s) => ({ name: 'skipped', value: `block ${s.block}: ${s.reason}` })),
    ],
    headline: `${diff.identical + diff.differing.length} transaction pairs in ${diff.blocks.length} blocks: ${diff.identical} identical, ${diff.differing.length} differ`,
    sections,
    ...(diff.gas.some((g) => g.a !== g.b) ? { gas } : {}),
    abis: run.abis,
    labels: run.labels,
  };
}
