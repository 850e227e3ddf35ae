// `blocktrace diff` of two 200-transaction blocks (issue 35): cancun-devnet's heavy block against
// itself, and against a copy of the chain in which one of its transactions (the first past the
// middle whose calldata is a selector and two words, sent by an anvil dev account) has its last
// argument one more, re-signed with its sender's well-known key and the block built again on the
// same parent with ethereumjs buildBlock (the later blocks left out: their parent changed). Three figures: the in-process diff with ABIs, warm (both sides' answers cached, as a
// user's second run in a server would be: median of 5), the first diff of the copy (its block
// replayed for callTracer, prestate and receipts), and the whole command as a process. Prints one
// JSON line on stdout.
//
// A benchmark input, not an expectation: nothing here is compared with a reference client's bytes.
//
//   bun bench/chainDiff.ts FIXTURE BLOCK ABI_DIR
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readArtifacts } from '../src/abi/artifacts.ts';
import { AbiDecoder } from '../src/abi/decoder.ts';
import { diffChains, type Side } from '../src/chainDiff/diffChains.ts';
import { diffText } from '../src/chainDiff/report.ts';
import { loadChain } from '../src/replay/loadChain.ts';
import type { ChainView } from '../src/replay/chainView.ts';
import { createContext } from '../src/rpc/context.ts';
import { devKeys, rebuildBlock, withLastByteChanged } from './rebuildBlock.ts';

export interface ChainDiffBench {
  readonly transactions: number;
  /** The pair against itself, warm: median of 5. */
  readonly sameMs: number;
  /** Against the copy, warm: median of 5. */
  readonly changedMs: number;
  /** Against the copy, its block not yet replayed. */
  readonly firstMs: number;
  /** `blocktrace diff A B BLOCK --abi DIR` as a process, both fixtures from their snapshots. */
  readonly commandMs: number;
  readonly differing: number;
}

const ROOT = resolve(import.meta.dir, '..');
/** The fixture at `fixture` with one call of block `number` changed (its last argument one more); the blocks after it dropped. */
async function copyWithOneChange(fixture: string, chain: ChainView, number: bigint, out: string): Promise<void> {
  const keys = devKeys();
  await rebuildBlock(fixture, chain, number, (original) => {
    const txs = [...original];
    const middle = txs.findIndex((tx, i) => i >= txs.length / 2 && tx.data.length === 68 && keys.has(tx.getSenderAddress().toString()));
    txs[middle] = withLastByteChanged(txs[middle]!, keys);
    return txs;
  }, out);
}

const median = (times: number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

export async function benchChainDiff(fixture: string, block: string, abiDir: string): Promise<ChainDiffBench> {
  const number = BigInt(block);
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-diff-'));
  const keep = process.env['KEEP_DIFF_BENCH'] !== undefined;
  try {
    const chainA = await loadChain(fixture);
    const copy = join(dir, 'copy.json');
    await copyWithOneChange(fixture, chainA, number, copy);
    const chainB = await loadChain(copy);
    const decoder = new AbiDecoder(readArtifacts(abiDir));
    const side = (name: string, chain: ChainView): Side => ({ name, ctx: createContext(chain, { log: () => {}, traceTimeoutMs: 0 }) });
    const [a, a2, b] = [side('A', chainA), side('B', chainA), side('B', chainB)];
    const run = async (other: Side): Promise<{ ms: number; differing: number }> => {
      const started = performance.now();
      const diff = await diffChains(a, other, { blocks: [number], decoder });
      diffText(diff, [fixture, copy]);
      return { ms: performance.now() - started, differing: diff.differing.length };
    };
    await run(a2);
    const first = await run(b);
    const same: number[] = [];
    const changed: number[] = [];
    for (let i = 0; i < 5; i++) {
      same.push((await run(a2)).ms);
      changed.push((await run(b)).ms);
    }
    const command = [process.execPath, join(ROOT, 'src/cli.ts'), 'diff', fixture, copy, block, '--abi', abiDir, '--cache', join(dir, 'cache')];
    await Bun.spawn(command, { stdout: 'ignore', stderr: 'ignore' }).exited; // writes both snapshots
    const started = performance.now();
    const code = await Bun.spawn(command, { stdout: 'ignore', stderr: 'ignore' }).exited;
    const commandMs = performance.now() - started;
    if (code !== 1) throw new Error(`diff of the copy exited ${code}, want 1`);
    return { transactions: chainA.blockByNumber(number)!.block.transactions.length, sameMs: median(same), changedMs: median(changed), firstMs: first.ms, commandMs, differing: first.differing };
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`kept ${dir}\n`);
  }
}

if (import.meta.main) {
  const [fixture, block, abiDir] = process.argv.slice(2);
  if (fixture === undefined || block === undefined || abiDir === undefined) throw new Error('usage: bun bench/chainDiff.ts FIXTURE BLOCK ABI_DIR');
  process.stdout.write(`${JSON.stringify(await benchChainDiff(resolve(fixture), block, resolve(abiDir)))}\n`);
}
