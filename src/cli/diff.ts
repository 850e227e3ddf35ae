// `blocktrace diff A B [BLOCK|TX_HASH …]`: loads both fixtures (or connects to a node, `--upstream
// URL`), pairs their transactions (by sender and nonce) and reports where they part (src/chainDiff). Exit 0 nothing differs, 1 something does (or nothing
// was left to compare), 2 a fixture, an --abi directory or a target cannot be read.
import { readAbiDirsOr } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { diffChains, pairTrees, type Side } from '../chainDiff/diffChains.ts';
import { diffJson, diffText } from '../chainDiff/report.ts';
import { contractLabels } from '../compare/labels.ts';
import { diffReportData } from '../htmlReport/diffReport.ts';
import { htmlReport, reportAbis } from '../htmlReport/htmlReport.ts';
import { reportPathProblem, writeReport } from '../htmlReport/writeReport.ts';
import { createContext } from '../rpc/context.ts';
import { call, codeAtHead } from '../rpc/inProcess.ts';
import type { DiffCommand } from './diffArgs.ts';
import type { ChainSource } from './upstream.ts';
import type { UpstreamSource } from './upstreamArgs.ts';

export interface DiffIo {
  readonly stdout: { write(text: string): unknown };
  readonly log: (line: string) => void;
  /** A side's chain: the node when `upstream` is given, else the fixture; undefined after one line on `log`. */
  readonly open: (upstream: UpstreamSource | undefined, fixture: string | undefined, cache: string | false | undefined) => Promise<ChainSource | undefined>;
}

/** The block of a transaction hash on side A: the block compared. */
async function blockOfTx(side: Side, hash: string): Promise<bigint | undefined> {
  const tx = await call<{ blockNumber?: string } | null>(side.ctx, 'eth_getTransactionByHash', [hash]);
  return tx?.blockNumber === undefined ? undefined : BigInt(tx.blockNumber);
}

export async function runDiff(options: DiffCommand, io: DiffIo): Promise<number> {
  const problem = options.report === undefined ? undefined : reportPathProblem(options.report);
  if (problem !== undefined) {
    io.log(`blocktrace: --report ${problem}`);
    return 2;
  }
  const artifacts = readAbiDirsOr(options.abiDirs, io.log);
  if (artifacts === undefined) return 2;
  const sourceA = await io.open(options.upstream[0], options.a, options.cache);
  if (sourceA === undefined) return 2;
  const sourceB = await io.open(options.upstream[1], options.b, options.cache);
  if (sourceB === undefined) return 2;
  if (sourceA.chain.chainId !== sourceB.chain.chainId && !options.anyChain) {
    io.log(`blocktrace: ${options.a} is chain ${sourceA.chain.chainId}, ${options.b} chain ${sourceB.chain.chainId}; compare them anyway with --any-chain`);
    return 2;
  }
  // a node's side replays the blocks it fetches, as upstream mode does; what it does not trace goes to the node
  const side = (name: string, source: ChainSource): Side => ({ name, ctx: createContext(source.chain, { traceTimeoutMs: 0, log: io.log, forward: source.forward }) });
  const [a, b] = [side('A', sourceA), side('B', sourceB)];
  const blocks: bigint[] = [];
  for (const target of options.targets) {
    if (target.length === 66) {
      const n = await blockOfTx(a, target);
      if (n === undefined) {
        io.log(`blocktrace: transaction ${target} is not on ${options.a}`);
        return 2;
      }
      blocks.push(n);
    } else {
      blocks.push(BigInt(target));
    }
  }
  const decoder = artifacts.length === 0 ? undefined : new AbiDecoder(artifacts);
  const diff = await diffChains(a, b, { blocks: [...new Set(blocks)], ...(decoder === undefined ? {} : { decoder }) });
  const sides = [options.a, options.b] as const;
  io.stdout.write(options.json ? diffJson(diff, sides) : diffText(diff, sides));
  if (options.report !== undefined) {
    try {
      const trees = await pairTrees(a, b, diff.differing);
      // contract names from A's code, or B's where A's matches no artifact, as the text report names them
      const labels = decoder === undefined ? new Map<string, string>() : await contractLabels([codeAtHead(a.ctx), codeAtHead(b.ctx)], decoder, trees.map((t) => JSON.stringify(t)), new Map());
      const written = writeReport(options.report, htmlReport(diffReportData(diff, { paths: sides, trees, abis: reportAbis(artifacts), labels: Object.fromEntries(labels) })));
      io.log(`blocktrace: wrote the HTML report to ${written}`);
    } catch (err) {
      io.log(`blocktrace: --report ${options.report}: ${(err as Error).message}`);
      return 2;
    }
  }
  if (diff.blocks.length === 0) return 1;
  // a transaction one side lacks is a difference too
  return diff.differing.length > 0 || diff.oneSided.length > 0 ? 1 : 0;
}
