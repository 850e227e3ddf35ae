// The library's rows (issue 48): openChain of builtin:cancun-devnet from its replay snapshot (a
// cache directory of its own, written by a first open), and one toMatchTraceSnapshot of a
// 200-transaction block of the generated fixture, warm (its snapshot written, the block traced once).
// Run alone: `bun bench/apiSnapshots.ts` prints the rows; bench/run.ts adds them to its table.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openChain, type RunnerState, traceSnapshotMatcher } from '../src/api/index.ts';
import { loadFixtureFile } from './generate.ts';
import { median } from './stats.ts';
import { row, type Row } from './table.ts';

const RUNS = 5;

export async function apiSnapshotRows(): Promise<Row[]> {
  const work = mkdtempSync(join(tmpdir(), 'blocktrace-bench-api-'));
  try {
    const cache = join(work, 'cache');
    await openChain('builtin:cancun-devnet', { cache }); // replays and keeps the snapshot
    const opens: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await openChain('builtin:cancun-devnet', { cache });
      opens.push(performance.now() - started);
    }

    const fixture = await loadFixtureFile(join(tmpdir(), 'blocktrace-bench', 'generated-10000-v1.json'), 10_000, 200);
    const chain = await openChain(fixture, { cache });
    mkdirSync(join(work, 'project'));
    const state: RunnerState = { testPath: join(work, 'project/block.test.ts'), update: 'new', updateFlag: 'bench' };
    await traceSnapshotMatcher(state, { chain, block: 1 }, 'block 1'); // writes it: the first run
    const matches: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const outcome = await traceSnapshotMatcher(state, { chain, block: 1 }, 'block 1');
      matches.push(performance.now() - started);
      if (!outcome.pass) throw new Error(outcome.message());
    }
    return [
      row('library: openChain(builtin:cancun-devnet) from its replay snapshot (median of 5)', 'ms', median(opens), null, { op: '<=', value: 200 }),
      row('library: toMatchTraceSnapshot of a 200-transaction block, warm (median of 5)', 'ms', median(matches), null, { op: '<=', value: 100 }),
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(JSON.stringify(await apiSnapshotRows(), null, 2));
