// The HTML report's data for `diff`: the two chains and the counts, an index of the pairs that differ
// (what differs in each, the gas change), then each pair that differs with both call trees side by
// side (the frames and fields that differ marked), the differences of the call tree and of the state
// it leaves in tables; the transactions only one side has, listed; and the gas table.
import type { ChainDiff } from '../chainDiff/diffChains.ts';
import { diffHeadline, kindsText, oneSidedBlockLines, pairPlace } from '../chainDiff/report.ts';
import type { GasRow, OneSided, ReportData, ReportSection } from '../ui/reportData.ts';
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
    // the pair's differences are placed in A's debug_traceBlockByNumber answer: `$.result[index].result…`
    const tree = treeAt(['result', pair.index, 'result'], run.trees[i] ?? [null, null], pair.calls, 'Call trees');
    const [placeA, placeB] = pair.at;
    return {
      id: `block-${pair.block}-tx-${pair.index}`,
      title: pairPlace(pair),
      lines: [
        `A ${pair.hashes[0] ?? '—'}${placeA === undefined ? '' : ` (block ${placeA.block} tx ${placeA.index})`}`,
        `B ${pair.hashes[1] ?? '—'}${placeB === undefined ? '' : ` (block ${placeB.block} tx ${placeB.index})`}`,
        `paired by ${pair.pairedBy ?? 'position'}${pair.sender === undefined ? '' : `: ${pair.sender} nonce ${pair.nonce ?? '?'}`}`,
        `gas used ${grouped(a)} → ${grouped(b)}${delta}`,
      ],
      trees: tree === undefined ? [] : [tree],
      tables: [
        ...(pair.calls.length === 0 ? [] : [{ title: 'Call tree differences', differences: pair.calls.map(reportDifference) }]),
        ...(pair.state.length === 0 ? [] : [{ title: 'State differences (prestateTracer, diff mode)', differences: pair.state.map(reportDifference) }]),
      ],
      kind: kindsText(pair.kinds),
      gas: `${grouped(a)} → ${grouped(b)}${delta}`,
    };
  });
  const oneSided: OneSided[] = (['b', 'a'] as const).flatMap((missing) => {
    const txs = diff.oneSided.filter((t) => t.missing === missing);
    const side = missing === 'b' ? 0 : 1;
    const title = `Only in ${missing === 'b' ? 'A' : 'B'} (${missing === 'b' ? 'B' : 'A'} has no transaction of the same sender and nonce in the blocks compared)`;
    return txs.length === 0 ? [] : [{
      title,
      rows: txs.map((t) => ({ place: `block ${t.block} tx ${t.index}`, hash: t.hashes[side] ?? '—', sender: t.sender === undefined ? 'no sender' : `${t.sender} nonce ${t.nonce ?? '?'}`, gas: grouped(t.gasUsed[side]) })),
    }];
  });
  const gas: GasRow[] = diff.gas.map((g) => ({ label: `block ${g.block} tx ${g.index}`, ...(g.a === undefined ? {} : { a: String(g.a) }), ...(g.b === undefined ? {} : { b: String(g.b) }) }));
  return {
    title: `diff ${run.paths[0]} ${run.paths[1]}`,
    sides: ['A', 'B'],
    summary: [
      { name: 'A', value: run.paths[0] },
      { name: 'B', value: run.paths[1] },
      ...diff.skipped.map((s) => ({ name: 'skipped', value: `block ${s.block}: ${s.reason}` })),
      ...oneSidedBlockLines(diff).map((line) => ({ name: 'one side', value: line })),
    ],
    headline: diffHeadline(diff),
    sections,
    ...(oneSided.length === 0 ? {} : { oneSided }),
    ...(diff.gas.some((g) => g.a !== g.b) ? { gas } : {}),
    abis: run.abis,
    labels: run.labels,
  };
}
