// `blocktrace diff A B [BLOCK|TX_HASH …]`: loads both fixtures, pairs their transactions by position
// and reports where they part (src/chainDiff). Exit 0 nothing differs, 1 something does (or nothing
// was left to compare), 2 a fixture, an --abi directory or a target cannot be read.
import { readAbiDirsOr } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { diffChains, pairTrees, type Side } from '../chainDiff/diffChains.ts';
import { diffJson, diffText } from '../chainDiff/report.ts';
import { contractLabels } from '../compare/labels.ts';
import { diffReportData } from '../htmlReport/diffReport.ts';
import { htmlReport, reportAbis } from '../htmlReport/htmlReport.ts';
import { reportPathProblem, writeReport } from '../htmlReport/writeReport.ts';
import type { ChainView } from '../replay/chainView.ts';
import { createContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';
import type { DiffCommand } from './diffArgs.ts';

export interface DiffIo {
  readonly stdout: { write(text: string): unknown };
  readonly log: (line: string) => void;
  readonly load: (path: string, cache: string | false | undefined) => Promise<ChainView | undefined>;
}

/** The block of a transaction hash on side A (pairs are by position). */
async function blockOfTx(side: Side, hash: string): Promise<bigint | undefined> {
  const answer = JSON.parse((await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionByHash', params: [hash] }), side.ctx))!) as { result?: { blockNumber?: string } | null };
  return answer.result?.blockNumber === undefined ? undefined : BigInt(answer.result.blockNumber);
}

export async function runDiff(options: DiffCommand, io: DiffIo): Promise<number> {
  const problem = options.report === undefined ? undefined : reportPathProblem(options.report);
  if (problem !== undefined) {
    io.log(`blocktrace: --report ${problem}`);
    return 2;
  }
  const artifacts = readAbiDirsOr(options.abiDirs, io.log);
  if (artifacts === undefined) return 2;
  const chainA = await io.load(options.a, options.cache);
  if (chainA === undefined) return 2;
  const chainB = await io.load(options.b, options.cache);
  if (chainB === undefined) return 2;
  if (chainA.chainId !== chainB.chainId && !options.anyChain) {
    io.log(`blocktrace: ${options.a} is chain ${chainA.chainId}, ${options.b} chain ${chainB.chainId}; compare them anyway with --any-chain`);
    return 2;
  }
  const a: Side = { name: 'A', ctx: createContext(chainA, { traceTimeoutMs: 0, log: io.log }) };
  const b: Side = { name: 'B', ctx: createContext(chainB, { traceTimeoutMs: 0, log: io.log }) };
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
      // contract names from A's code, as the text report names them
      const labels = decoder === undefined ? new Map<string, string>() : await contractLabels(a.ctx, decoder, trees.map((t) => JSON.stringify(t)), new Map());
      writeReport(options.report, htmlReport(diffReportData(diff, { paths: sides, trees, abis: reportAbis(artifacts), labels: Object.fromEntries(labels) })));
    } catch (err) {
      io.log(`blocktrace: --report ${options.report}: ${(err as Error).message}`);
      return 2;
    }
  }
  if (diff.blocks.length === 0) return 1;
  return diff.differing.length > 0 ? 1 : 0;
}
