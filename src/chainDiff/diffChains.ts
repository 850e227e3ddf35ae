// Where two chains that ran the same transactions part (`blocktrace diff A B`). Transactions are
// paired as the same transaction: by sender and nonce, so a chain mined again with other hashes, or
// with a transaction dropped or added before others, pairs up; by position (block, index) where
// sender and nonce do not identify one (no sender, or the same sender and nonce twice on a side).
// A transaction only one side has is listed as such, not traced against another. For each pair,
// each side answers callTracer (with logs) and prestateTracer in diff mode for its block through its
// own dispatcher, and the comparison engine of `check` (src/compare) finds every difference of the
// pair's two entries: the call tree's first, the state it leaves, the logs, the gas.
import type { AbiDecoder } from '../abi/decoder.ts';
import { findDifferences } from '../compare/answers.ts';
import { parseIgnores } from '../compare/ignore.ts';
import { parseWhole, type JsonNode } from '../compare/jsonText.ts';
import { decodingFor } from '../compare/labels.ts';
import type { PlacedDifference } from '../compare/types.ts';
import type { RpcContext } from '../rpc/context.ts';
import { callRaw, codeAtHead, requestBody } from '../rpc/inProcess.ts';
import { logsDiffering, pairUp, type Log, type PairedBy, type Tx, type TxPlace } from './pairUp.ts';

/** One side: its dispatcher, and how it is named in the report. */
export interface Side {
  readonly name: string;
  readonly ctx: RpcContext;
}

/** What differs in a pair, for an index of pairs: only what differs is present. */
export interface DifferenceKinds {
  /** The receipt's status: one side failed. */
  readonly status?: true;
  /** Differences in the call tree (callTracer with logs, logs included). */
  readonly calls?: number;
  /** Logs of the receipt that differ (address, topics or data), or are on one side only. */
  readonly logs?: number;
  /** Differences in the state it leaves. */
  readonly state?: number;
  /** Gas used, B − A. */
  readonly gas?: bigint;
}

export interface TxPair {
  /** A's place (B's when only B has it): the block and index the report names it by. */
  readonly block: bigint;
  readonly index: number;
  /** Each side's place; undefined on the side that lacks it. */
  readonly at: readonly [TxPlace | undefined, TxPlace | undefined];
  /** The sender and nonce both sides share (or the one side's), when known. */
  readonly sender?: string;
  readonly nonce?: bigint;
  /** How the two were paired; absent when only one side has it. */
  readonly pairedBy?: PairedBy;
  readonly hashes: readonly [string | undefined, string | undefined];
  readonly gasUsed: readonly [bigint | undefined, bigint | undefined];
  /** The call tree's differences (logs included), in document order: the first is where the trees part. */
  readonly calls: readonly PlacedDifference[];
  /** The state the transaction leaves (prestate diff mode of each side compared). */
  readonly state: readonly PlacedDifference[];
  /** On one side only: `a` missing means only B has it. */
  readonly missing?: 'a' | 'b';
  readonly kinds: DifferenceKinds;
}

export interface ChainDiff {
  readonly blocks: readonly bigint[];
  /** Blocks asked for that neither side has. */
  readonly skipped: readonly { readonly block: bigint; readonly reason: string }[];
  /** Blocks of the comparison only one side has (`only`), whose transactions are read from it alone. */
  readonly oneSidedBlocks: readonly { readonly block: bigint; readonly only: 'a' | 'b' }[];
  readonly identical: number;
  /** The pairs that differ, in A's order. */
  readonly differing: readonly TxPair[];
  /** The transactions only one side has (`missing` says which lacks it), A's first, each side in its order. */
  readonly oneSided: readonly TxPair[];
  /** Every pair's gas (for the gas table), identical pairs included, at A's place. */
  readonly gas: readonly { readonly block: bigint; readonly index: number; readonly a: bigint | undefined; readonly b: bigint | undefined }[];
}

/**
 * What tells a pair's entries apart by where each stands, not by what it did: the hash of each side's
 * transaction, and a callTracer log's `index` in its block (a transaction added or dropped before it
 * moves it).
 */
const PAIRED = parseIgnores(['txHash', 'index']);

async function call(side: Side, method: string, params: unknown[]): Promise<{ text: string; value: unknown }> {
  const text = await callRaw(side.ctx, method, params);
  const parsed = JSON.parse(text) as { result?: unknown; error?: { message: string } };
  if (parsed.error !== undefined) throw new Error(`${side.name}: ${method} ${JSON.stringify(params[0])}: ${parsed.error.message}`);
  return { text, value: parsed.result };
}

interface BlockTx {
  readonly hash: string;
  readonly from?: string;
  readonly nonce?: string;
}

interface Receipt {
  readonly transactionHash: string;
  readonly gasUsed: string;
  readonly status?: string;
  readonly logs?: readonly Log[];
}

/** The transactions of block `n` on one side, with their receipts. */
async function transactions(side: Side, n: bigint): Promise<Tx[]> {
  const tag = `0x${n.toString(16)}`;
  const [block, receipts] = await Promise.all([call(side, 'eth_getBlockByNumber', [tag, true]), call(side, 'eth_getBlockReceipts', [tag])]);
  const txs = ((block.value as { transactions?: BlockTx[] } | null)?.transactions ?? []);
  const byHash = new Map(((receipts.value as Receipt[] | null) ?? []).map((r) => [r.transactionHash, r]));
  return txs.map((tx, index) => {
    const receipt = byHash.get(tx.hash);
    return {
      block: n,
      index,
      hash: tx.hash,
      ...(tx.from === undefined ? {} : { sender: tx.from.toLowerCase() }),
      ...(tx.nonce === undefined ? {} : { nonce: BigInt(tx.nonce) }),
      gasUsed: receipt === undefined ? 0n : BigInt(receipt.gasUsed),
      ...(receipt?.status === undefined ? {} : { status: receipt.status }),
      logs: receipt?.logs ?? [],
    };
  });
}

/** One side's block traces, parsed once for every pair that has a transaction in that block. */
class BlockTraces {
  private readonly kept = new Map<string, readonly JsonNode[]>();
  constructor(private readonly side: Side) {}

  /** The entries (`{txHash, result}`) of block `n`'s answer to `tracer`. */
  async entries(n: bigint, tracer: object): Promise<readonly JsonNode[]> {
    const key = `${n}/${JSON.stringify(tracer)}`;
    let entries = this.kept.get(key);
    if (entries === undefined) {
      const { text } = await call(this.side, 'debug_traceBlockByNumber', [`0x${n.toString(16)}`, tracer]);
      const result = parseWhole(text);
      const list = result?.t === 'object' ? result.entries.find(([k]) => k === 'result')?.[1] : undefined;
      entries = list?.t === 'array' ? list.items : [];
      // the pairs come in A's order: a side's earlier blocks are not asked again, bar a moved transaction
      if (this.kept.size >= 8) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, entries);
    }
    return entries;
  }
}

/** An entry's `result`: the trace without the transaction's hash. */
const resultOf = (entry: JsonNode | undefined): JsonNode | undefined => (entry?.t === 'object' ? entry.entries.find(([k]) => k === 'result')?.[1] : undefined);

const CALLS = { tracer: 'callTracer', tracerConfig: { withLog: true } };
const PRESTATE = { tracer: 'prestateTracer', tracerConfig: { diffMode: true } };

/**
 * The differences of a pair's entries in both sides' answers to `tracer`, placed as in A's block
 * trace: both entries stand at A's index of a debug_traceBlockByNumber answer of A's block (the
 * entries before it alike on both sides), so paths and headings are those of A's answer
 * (`$.result[3].result…`, `tx 3 (0x…) › …`) wherever B has the transaction.
 */
async function comparePair(a: BlockTraces, b: BlockTraces, x: Tx, y: Tx, tracer: object, sides: readonly [Side, Side], decoder: AbiDecoder | undefined, known: Map<string, string | undefined>): Promise<readonly PlacedDifference[]> {
  const [ea, eb] = await Promise.all([a.entries(x.block, tracer), b.entries(y.block, tracer)]);
  // the same bytes: nothing to place (most pairs of a chain mined again, every pair of a chain and itself)
  const [ra, rb] = [resultOf(ea[x.index]), resultOf(eb[y.index])];
  if (ra !== undefined && ra.raw === rb?.raw) return [];
  const answer = (entry: JsonNode | undefined): string => `{"jsonrpc":"2.0","id":1,"result":[${'null,'.repeat(x.index)}${entry?.raw ?? 'null'}]}`;
  const [ta, tb] = [answer(ea[x.index]), answer(eb[y.index])];
  const request = requestBody('debug_traceBlockByNumber', [`0x${x.block.toString(16)}`, tracer]);
  const found = findDifferences(request, ta, tb, { mode: 'semantic', ignore: PAIRED });
  // contract names from A's code, or B's where A's matches no artifact (two versions of a contract)
  return found.differences.length > 0 && decoder !== undefined ? found.decoded(await decodingFor([codeAtHead(sides[0].ctx), codeAtHead(sides[1].ctx)], decoder, [ta, tb], known)) : found.differences;
}

export interface DiffOptions {
  /** Blocks to compare; every block both chains have when empty. */
  readonly blocks: readonly bigint[];
  /** ABIs: frames, events, reverts and storage slots decoded, contracts named. */
  readonly decoder?: AbiDecoder;
}

function oneSided(tx: Tx, missing: 'a' | 'b'): TxPair {
  return {
    block: tx.block,
    index: tx.index,
    at: missing === 'a' ? [undefined, { block: tx.block, index: tx.index }] : [{ block: tx.block, index: tx.index }, undefined],
    ...(tx.sender === undefined ? {} : { sender: tx.sender }),
    ...(tx.nonce === undefined ? {} : { nonce: tx.nonce }),
    hashes: missing === 'a' ? [undefined, tx.hash] : [tx.hash, undefined],
    gasUsed: missing === 'a' ? [undefined, tx.gasUsed] : [tx.gasUsed, undefined],
    calls: [],
    state: [],
    missing,
    kinds: {},
  };
}

export async function diffChains(a: Side, b: Side, options: DiffOptions): Promise<ChainDiff> {
  const headA = a.ctx.chain.head.number;
  const headB = b.ctx.chain.head.number;
  const first = (a.ctx.chain.genesis.number > b.ctx.chain.genesis.number ? a.ctx.chain.genesis.number : b.ctx.chain.genesis.number) + 1n;
  // the longer chain's last blocks too: their transactions pair with the other's wherever it has them
  const last = headA > headB ? headA : headB;
  const asked = options.blocks.length > 0 ? options.blocks : Array.from({ length: Math.max(0, Number(last - first + 1n)) }, (_, i) => first + BigInt(i));
  const skipped: { block: bigint; reason: string }[] = [];
  const oneSidedBlocks: { block: bigint; only: 'a' | 'b' }[] = [];
  const blocks: bigint[] = [];
  for (const n of asked) {
    const [hasA, hasB] = [n <= headA && n >= a.ctx.chain.genesis.number, n <= headB && n >= b.ctx.chain.genesis.number];
    if (!hasA && !hasB) {
      skipped.push({ block: n, reason: `${a.name} and ${b.name} have no block ${n}` });
      continue;
    }
    if (!hasA || !hasB) oneSidedBlocks.push({ block: n, only: hasA ? 'a' : 'b' });
    blocks.push(n);
  }
  const txsA: Tx[] = [];
  const txsB: Tx[] = [];
  const onlyIn = new Map(oneSidedBlocks.map((o) => [o.block, o.only]));
  for (const n of blocks) {
    const only = onlyIn.get(n);
    const [x, y] = await Promise.all([only === 'b' ? [] : transactions(a, n), only === 'a' ? [] : transactions(b, n)]);
    txsA.push(...x);
    txsB.push(...y);
  }
  const { pairs, onlyA, onlyB } = pairUp(txsA, txsB);
  const [tracesA, tracesB] = [new BlockTraces(a), new BlockTraces(b)];
  const known = new Map<string, string | undefined>();
  let identical = 0;
  const differing: TxPair[] = [];
  const gas: { block: bigint; index: number; a: bigint | undefined; b: bigint | undefined }[] = [];
  for (const [x, y, pairedBy] of pairs) {
    const calls = await comparePair(tracesA, tracesB, x, y, CALLS, [a, b], options.decoder, known);
    const state = await comparePair(tracesA, tracesB, x, y, PRESTATE, [a, b], options.decoder, known);
    const logs = logsDiffering(x.logs, y.logs);
    const kinds: DifferenceKinds = {
      ...(x.status !== y.status ? { status: true as const } : {}),
      ...(calls.length > 0 ? { calls: calls.length } : {}),
      ...(logs > 0 ? { logs } : {}),
      ...(state.length > 0 ? { state: state.length } : {}),
      ...(x.gasUsed !== y.gasUsed ? { gas: y.gasUsed - x.gasUsed } : {}),
    };
    const pair: TxPair = {
      block: x.block,
      index: x.index,
      at: [{ block: x.block, index: x.index }, { block: y.block, index: y.index }],
      ...(x.sender === undefined ? {} : { sender: x.sender }),
      ...(x.nonce === undefined ? {} : { nonce: x.nonce }),
      pairedBy,
      hashes: [x.hash, y.hash],
      gasUsed: [x.gasUsed, y.gasUsed],
      calls,
      state,
      kinds,
    };
    gas.push({ block: x.block, index: x.index, a: x.gasUsed, b: y.gasUsed });
    if (Object.keys(kinds).length === 0) identical++;
    else differing.push(pair);
  }
  return { blocks, skipped, oneSidedBlocks, identical, differing, oneSided: [...onlyA.map((tx) => oneSided(tx, 'b')), ...onlyB.map((tx) => oneSided(tx, 'a'))], gas };
}

/** Each pair's callTracer answer (with logs) on A and on B, by its hashes: the call trees the HTML report draws. */
export async function pairTrees(a: Side, b: Side, pairs: readonly TxPair[]): Promise<(readonly [unknown, unknown])[]> {
  const tree = async (side: Side, hash: string | undefined): Promise<unknown> =>
    hash === undefined ? null : (await call(side, 'debug_traceTransaction', [hash, CALLS])).value;
  const trees: (readonly [unknown, unknown])[] = [];
  for (const pair of pairs) trees.push([await tree(a, pair.hashes[0]), await tree(b, pair.hashes[1])]);
  return trees;
}
