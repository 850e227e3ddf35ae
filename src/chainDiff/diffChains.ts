// Where two chains that ran the same transactions part (`blocktrace diff A B`). Transactions are
// paired by position (block number, index), so a chain mined again with other hashes pairs up. For
// each block both have, each side answers callTracer (with logs), prestateTracer in diff mode and
// its receipts through its own dispatcher, and the comparison engine of `check` (src/compare) finds
// every difference of the pair: the call tree's first, the state it leaves, the logs, the gas.
import type { AbiDecoder } from '../abi/decoder.ts';
import { findDifferences } from '../compare/answers.ts';
import { parseIgnores } from '../compare/ignore.ts';
import { decodingFor } from '../compare/labels.ts';
import type { PlacedDifference } from '../compare/types.ts';
import type { RpcContext } from '../rpc/context.ts';
import { dispatch } from '../rpc/dispatch.ts';

/** One side: its dispatcher, and how it is named in the report. */
export interface Side {
  readonly name: string;
  readonly ctx: RpcContext;
}

export interface TxPair {
  readonly block: bigint;
  readonly index: number;
  readonly hashes: readonly [string | undefined, string | undefined];
  readonly gasUsed: readonly [bigint | undefined, bigint | undefined];
  /** The call tree's differences (logs included), in document order: the first is where the trees part. */
  readonly calls: readonly PlacedDifference[];
  /** The state the transaction leaves (prestate diff mode of each side compared). */
  readonly state: readonly PlacedDifference[];
  /** On one side only. */
  readonly missing?: 'a' | 'b';
}

export interface ChainDiff {
  readonly blocks: readonly bigint[];
  /** Blocks asked for that a side lacks, with the side. */
  readonly skipped: readonly { readonly block: bigint; readonly reason: string }[];
  readonly identical: number;
  readonly differing: readonly TxPair[];
  /** Every pair's gas (for the gas table), identical pairs included. */
  readonly gas: readonly { readonly block: bigint; readonly index: number; readonly a: bigint | undefined; readonly b: bigint | undefined }[];
}

/** Positions pair transactions, so what differs by position only is noise here. */
const POSITIONAL = parseIgnores(['txHash']);

async function call(side: Side, method: string, params: unknown[]): Promise<{ text: string; value: unknown }> {
  const text = (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), side.ctx)) ?? '';
  const parsed = JSON.parse(text) as { result?: unknown; error?: { message: string } };
  if (parsed.error !== undefined) throw new Error(`${side.name}: ${method} ${JSON.stringify(params[0])}: ${parsed.error.message}`);
  return { text, value: parsed.result };
}

/** The transaction index a difference's path starts in (`$.result[3]…`). */
const txOf = (d: PlacedDifference): number | undefined => {
  const m = /^\$\.result\[(\d+)\]/.exec(d.path);
  return m === null ? undefined : Number(m[1]);
};

interface Receipt {
  readonly transactionHash: string;
  readonly gasUsed: string;
}

/** Both sides' answers to one tracer for block `n`, compared; the differences by transaction index. */
async function compareTracer(a: Side, b: Side, n: string, tracer: object, decoder: AbiDecoder | undefined, known: Map<string, string | undefined>): Promise<Map<number, PlacedDifference[]>> {
  const params = [n, tracer];
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params });
  const [ta, tb] = await Promise.all([call(a, 'debug_traceBlockByNumber', params), call(b, 'debug_traceBlockByNumber', params)]);
  const found = findDifferences(request, ta.text, tb.text, { mode: 'semantic', ignore: POSITIONAL });
  // contract names from A's code, or B's where A's matches no artifact (two versions of a contract)
  const differences = found.differences.length > 0 && decoder !== undefined ? found.decoded(await decodingFor([a.ctx, b.ctx], decoder, [ta.text, tb.text], known)) : found.differences;
  const byTx = new Map<number, PlacedDifference[]>();
  for (const d of differences) {
    const i = txOf(d);
    if (i === undefined) continue;
    const list = byTx.get(i) ?? [];
    list.push(d);
    byTx.set(i, list);
  }
  return byTx;
}

export interface DiffOptions {
  /** Blocks to compare; every block both chains have when empty. */
  readonly blocks: readonly bigint[];
  /** ABIs: frames, events, reverts and storage slots decoded, contracts named. */
  readonly decoder?: AbiDecoder;
}

export async function diffChains(a: Side, b: Side, options: DiffOptions): Promise<ChainDiff> {
  const headA = a.ctx.chain.head.number;
  const headB = b.ctx.chain.head.number;
  const first = (a.ctx.chain.genesis.number > b.ctx.chain.genesis.number ? a.ctx.chain.genesis.number : b.ctx.chain.genesis.number) + 1n;
  const last = headA < headB ? headA : headB;
  const asked = options.blocks.length > 0 ? options.blocks : Array.from({ length: Math.max(0, Number(last - first + 1n)) }, (_, i) => first + BigInt(i));
  const skipped: { block: bigint; reason: string }[] = [];
  const blocks: bigint[] = [];
  for (const n of asked) {
    const lacks = [n > headA || n < a.ctx.chain.genesis.number ? a.name : undefined, n > headB || n < b.ctx.chain.genesis.number ? b.name : undefined].filter((x) => x !== undefined);
    if (lacks.length > 0) skipped.push({ block: n, reason: `${lacks.join(' and ')} ${lacks.length === 1 ? 'has' : 'have'} no block ${n}` });
    else blocks.push(n);
  }
  const known = new Map<string, string | undefined>();
  let identical = 0;
  const differing: TxPair[] = [];
  const gas: { block: bigint; index: number; a: bigint | undefined; b: bigint | undefined }[] = [];
  for (const n of blocks) {
    const tag = `0x${n.toString(16)}`;
    const [ra, rb] = await Promise.all([call(a, 'eth_getBlockReceipts', [tag]), call(b, 'eth_getBlockReceipts', [tag])]);
    const receiptsA = (ra.value as Receipt[] | null) ?? [];
    const receiptsB = (rb.value as Receipt[] | null) ?? [];
    const calls = await compareTracer(a, b, tag, { tracer: 'callTracer', tracerConfig: { withLog: true } }, options.decoder, known);
    const state = await compareTracer(a, b, tag, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }, options.decoder, known);
    for (let i = 0; i < Math.max(receiptsA.length, receiptsB.length); i++) {
      const [x, y] = [receiptsA[i], receiptsB[i]];
      const pair: TxPair = {
        block: n,
        index: i,
        hashes: [x?.transactionHash, y?.transactionHash],
        gasUsed: [x === undefined ? undefined : BigInt(x.gasUsed), y === undefined ? undefined : BigInt(y.gasUsed)],
        calls: calls.get(i) ?? [],
        state: state.get(i) ?? [],
        ...(x === undefined ? { missing: 'a' as const } : y === undefined ? { missing: 'b' as const } : {}),
      };
      gas.push({ block: n, index: i, a: pair.gasUsed[0], b: pair.gasUsed[1] });
      if (pair.missing === undefined && pair.calls.length === 0 && pair.state.length === 0 && pair.gasUsed[0] === pair.gasUsed[1]) identical++;
      else differing.push(pair);
    }
  }
  return { blocks, skipped, identical, differing, gas };
}

/** Each pair's callTracer answer (with logs) on A and on B, by its hashes: the call trees the HTML report draws. */
export async function pairTrees(a: Side, b: Side, pairs: readonly TxPair[]): Promise<(readonly [unknown, unknown])[]> {
  const tree = async (side: Side, hash: string | undefined): Promise<unknown> =>
    hash === undefined ? null : (await call(side, 'debug_traceTransaction', [hash, { tracer: 'callTracer', tracerConfig: { withLog: true } }])).value;
  const trees: (readonly [unknown, unknown])[] = [];
  for (const pair of pairs) trees.push([await tree(a, pair.hashes[0]), await tree(b, pair.hashes[1])]);
  return trees;
}
