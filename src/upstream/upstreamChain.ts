// A chain whose blocks come from a live node (upstream mode). Blocks are fetched on demand with
// their transactions; a block is recorded on one VM whose state is read lazily from the upstream at
// the parent block (upstreamState.ts), with the project's Recorder attached, as FixtureChain does
// from a stored root.
import { type Block, createBlockFromRPC } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type VM, createVM } from '@ethereumjs/vm';
import { bytesToHex, bytesToUnprefixedHex, hexToBytes } from '@ethereumjs/util';
import { hexQuantity } from '../encoding/hex.ts';
import { UpstreamError } from '../errors/upstreamError.ts';
import { type BlockFetcher, type ChainBlock, type ChainTag, type ChainView, type ReceiptInfo, type RecordOptions, type TxLocation, chainBlockOf } from '../replay/chainView.ts';
import { RecordingStore, type RunCheck, recordRun } from '../replay/recordings.ts';
import { recordCalls, type TracedCalls } from '../replay/callTrace.ts';
import { makeCommon } from '../replay/common.ts';
import { loadKeccak } from '../replay/keccak.ts';
import { lazyKzg, preloadKzg } from '../replay/kzg.ts';
import { Recorder } from '../replay/recorder.ts';
import type { BlockRecording, StepSink, TxRecording } from '../trace/types.ts';
import type { UpstreamClient } from './client.ts';
import { upstreamGenesis } from './chainConfig.ts';
import { replayCheck } from './replayCheck.ts';
import { StateAt, UpstreamStateManager } from './upstreamState.ts';
import { blockFromNode } from './blockFromNode.ts';

/** Blocks, recordings and pre-states kept (oldest dropped first). */
const KEEP_BLOCKS = 1024;
const KEEP_RECORDINGS = 64;
const KEEP_STATES = 8;

/** An eth_getBlockByNumber(…, true) object, as far as it is read here. */
interface RpcBlock {
  hash: string;
  number: string;
  uncles?: string[];
  [field: string]: unknown;
}

/** Fetches and decodes blocks of the upstream; shared by upstream mode and capture. */
export class UpstreamBlocks {
  constructor(readonly client: UpstreamClient, readonly common: Common) {}

  async byNumber(tag: string): Promise<Block | undefined> {
    return this.decode(await this.client.call<RpcBlock | null>('eth_getBlockByNumber', [tag, true]));
  }

  async byHash(hash: Uint8Array): Promise<Block | undefined> {
    return this.decode(await this.client.call<RpcBlock | null>('eth_getBlockByHash', [bytesToHex(hash), true]));
  }

  /** The hash of block `n`, for BLOCKHASH. */
  async hashOf(n: bigint): Promise<Uint8Array> {
    const header = await this.client.call<{ hash: string } | null>('eth_getBlockByNumber', [hexQuantity(n), false]);
    if (header === null) throw new UpstreamError(`upstream ${this.client.url}: block ${n} not found (BLOCKHASH)`);
    return hexToBytes(header.hash as `0x${string}`);
  }

  private async decode(json: RpcBlock | null): Promise<Block | undefined> {
    if (json === null || json === undefined) return undefined;
    // Proof-of-work uncles matter for reward traces; the block object only names them.
    const uncles = await Promise.all(
      (json.uncles ?? []).map((_, i) => this.client.call<unknown>('eth_getUncleByBlockHashAndIndex', [json.hash, hexQuantity(i)])),
    );
    let block: Block;
    try {
      block = blockFromNode(json, uncles, { common: this.common, setHardfork: true, skipConsensusFormatValidation: true });
    } catch (err) {
      const genesis = anvilGenesis(json, this.common);
      if (genesis !== undefined) return genesis;
      throw new UpstreamError(`upstream ${this.client.url}: block ${json.number} cannot be decoded (${(err as Error).message})`);
    }
    if (bytesToHex(block.hash()) !== json.hash.toLowerCase()) {
      throw new UpstreamError(
        `upstream ${this.client.url}: block ${json.number} decodes to hash ${bytesToHex(block.hash())}, the node says ${json.hash} (a header field this tool does not know?)`,
      );
    }
    return block;
  }
}

/**
 * anvil's block 0 is a placeholder header that reports the blob fields whatever the hardfork
 * (docs/fixtures.md, "Genesis"), which a pre-Cancun Common refuses. It is never traced;
 * only its hash matters (block 1's parentHash, BLOCKHASH(0)): keep the header without the fields
 * its fork lacks, under the hash the node reports.
 */
function anvilGenesis(json: RpcBlock, common: Common): Block | undefined {
  if (BigInt(json.number) !== 0n) return undefined;
  const atGenesis = common.copy();
  atGenesis.setHardforkBy({ blockNumber: 0n, timestamp: BigInt(typeof json['timestamp'] === 'string' ? json['timestamp'] : '0x0') });
  const trimmed: Record<string, unknown> = { ...json };
  if (!atGenesis.isActivatedEIP(4844)) for (const f of ['blobGasUsed', 'excessBlobGas', 'parentBeaconBlockRoot']) delete trimmed[f];
  if (!atGenesis.isActivatedEIP(7685)) delete trimmed['requestsHash'];
  try {
    const block = createBlockFromRPC(trimmed as never, [], { common: atGenesis, setHardfork: true, skipConsensusFormatValidation: true, freeze: false });
    const hash = hexToBytes(json.hash as `0x${string}`);
    Object.defineProperty(block, 'hash', { value: () => hash });
    return block;
  } catch {
    return undefined;
  }
}

/** The upstream chain's fork schedule (a go-ethereum config), what it rests on, and the Common built from it. */
export async function upstreamCommon(client: UpstreamClient, genesisFile: string | undefined): Promise<{ common: Common; config: Record<string, unknown>; forks: string }> {
  const chainId = BigInt(await client.call<string>('eth_chainId', []));
  const { genesis, source } = await upstreamGenesis(client, chainId, genesisFile);
  const config: Record<string, unknown> = { chainId: Number(chainId), ...genesis.config };
  if (config['cancunTime'] !== undefined) await preloadKzg();
  return { common: makeCommon(genesisFile ?? `upstream ${client.url}`, { ...genesis, config }, lazyKzg, await loadKeccak()), config, forks: source };
}

export class UpstreamChain implements ChainView {
  readonly label: string;
  readonly chainId: bigint;
  readonly fetch: BlockFetcher;
  /** What the fork schedule rests on (chainConfig.ts), for the log. */
  readonly forkNote: string;
  private readonly blocks = new Map<string, ChainBlock>();
  private readonly txIndex = new Map<string, TxLocation>();
  private readonly recordings = new RecordingStore(KEEP_RECORDINGS);
  private readonly states = new Map<string, StateAt>();
  private readonly recorder: Recorder;
  /** The block being recorded: BLOCKHASH answers for its ancestors. */
  private current: { block: ChainBlock; reads: StateAt } | undefined;
  private latest: ChainBlock;
  private readonly first: ChainBlock;

  private constructor(
    private readonly source: UpstreamBlocks,
    private readonly vm: VM,
    private readonly state: UpstreamStateManager,
    genesis: Block,
    latest: Block,
    forks: string,
    /** The replay of a whole block against the node's header (replayCheck.ts). */
    private readonly check: RunCheck,
  ) {
    this.label = `upstream ${source.client.url}`;
    this.forkNote = forks;
    this.chainId = source.common.chainId();
    this.recorder = new Recorder(vm);
    this.first = this.remember(genesis);
    this.latest = this.remember(latest);
    this.fetch = {
      byNumber: (n) => this.fetchBy(hexQuantity(n)),
      byTag: (tag) => this.fetchBy(tagOf(tag)),
      byHash: async (hash) => this.blocks.get(bytesToUnprefixedHex(hash)) ?? this.known(await this.source.byHash(hash)),
      tx: (hash) => this.fetchTx(hash),
    };
  }

  /** @param genesisFile go-ethereum genesis.json with the fork schedule; else a well-known chain's, anvil_nodeInfo, or what the node answers. */
  static async connect(client: UpstreamClient, genesisFile: string | undefined): Promise<UpstreamChain> {
    const { common, forks } = await upstreamCommon(client, genesisFile);
    const source = new UpstreamBlocks(client, common);
    const state = new UpstreamStateManager(common, client.url);
    let chain: UpstreamChain | undefined;
    const blockchain = {
      getBlock: async (n: number | bigint) => {
        const hash = await chain!.ancestorHash(BigInt(n));
        return { hash: () => hash };
      },
      shallowCopy() {
        return this;
      },
    };
    const vm = await createVM({ common, stateManager: state, blockchain: blockchain as never });
    const [genesis, latest] = await Promise.all([source.byNumber('0x0'), source.byNumber('latest')]);
    if (genesis === undefined || latest === undefined) throw new UpstreamError(`upstream ${client.url}: no genesis or latest block`);
    chain = new UpstreamChain(source, vm, state, genesis, latest, forks, replayCheck(client.url, forks, genesisFile !== undefined));
    return chain;
  }

  get genesis(): ChainBlock {
    return this.first;
  }
  /** The latest block as last seen (a `latest` lookup refreshes it). */
  get head(): ChainBlock {
    return this.latest;
  }
  get finalized(): ChainBlock {
    return this.latest;
  }
  get safe(): ChainBlock {
    return this.latest;
  }

  // The synchronous lookups know the blocks fetched so far; handlers use `fetch`.
  blockByNumber(n: bigint): ChainBlock | undefined {
    return [...this.blocks.values()].find((b) => b.number === n);
  }
  blockByHash(hash: Uint8Array): ChainBlock | undefined {
    return this.blocks.get(bytesToUnprefixedHex(hash));
  }
  txByHash(hash: Uint8Array): TxLocation | undefined {
    return this.txIndex.get(bytesToUnprefixedHex(hash));
  }
  /** Receipts are the upstream's to give (eth_getTransactionReceipt is forwarded). */
  receipts(): readonly ReceiptInfo[] {
    return [];
  }

  recordBlock(block: ChainBlock, options?: RecordOptions): Promise<BlockRecording> {
    return this.recordings.get(block, options, (state, steps) => this.record(block, state, steps));
  }

  /** Calls traced on the state after `block`, read from the node at that block (eth_getProof and friends). */
  readonly traceCalls = (block: ChainBlock, request: TracedCalls, options?: RecordOptions): Promise<TxRecording[]> =>
    this.recordings.exclusive(async () => {
      const reads = new StateAt(this.source.client, block.number, this.source.common.customCrypto.keccak256!);
      this.state.use(reads);
      this.current = { block, reads };
      try {
        return await recordCalls(this.vm, this.recorder, block.block, undefined, request, options?.state === true, options?.steps);
      } catch (err) {
        throw reads.failure ?? err;
      } finally {
        this.current = undefined;
      }
    });

  private async record(block: ChainBlock, state: boolean, steps?: StepSink): Promise<BlockRecording> {
    const parentKey = bytesToUnprefixedHex(block.block.header.parentHash);
    let reads = this.states.get(parentKey);
    if (reads === undefined) {
      reads = new StateAt(this.source.client, block.number - 1n, this.source.common.customCrypto.keccak256!);
      keep(this.states, parentKey, reads, KEEP_STATES);
    }
    this.state.use(reads);
    this.current = { block, reads };
    // A lazy state has no trie to hash: the run reports the header's root (the node's own).
    try {
      return await recordRun(this.vm, this.recorder, block.block, undefined, new Uint8Array(block.block.header.stateRoot), state, steps, this.check);
    } catch (err) {
      // the recorder's failure, or the upstream's behind it
      throw this.failed(reads, err);
    } finally {
      this.current = undefined;
    }
  }

  /** Forgets the reads of a failed run (a retry fetches again); the upstream failure behind it, if any. */
  private failed(reads: StateAt, err: unknown): unknown {
    for (const [key, value] of this.states) if (value === reads) this.states.delete(key);
    return reads.failure ?? err;
  }

  private async ancestorHash(n: bigint): Promise<Uint8Array> {
    const current = this.current;
    if (current === undefined) throw new Error('BLOCKHASH outside a recording');
    if (n === current.block.number - 1n) return current.block.block.header.parentHash;
    return current.reads.blockHash(n, this.source);
  }

  private async fetchBy(tag: string): Promise<ChainBlock | undefined> {
    const block = this.known(await this.source.byNumber(tag));
    if (tag === 'latest' && block !== undefined) this.latest = block;
    return block;
  }

  private async fetchTx(hash: Uint8Array): Promise<TxLocation | undefined> {
    const tx = await this.source.client.call<{ blockHash: string | null; transactionIndex: string | null } | null>('eth_getTransactionByHash', [bytesToHex(hash)]);
    if (tx === null || tx.blockHash === null || tx.transactionIndex === null) return undefined;
    const block = await this.fetch.byHash(hexToBytes(tx.blockHash as `0x${string}`));
    return block === undefined ? undefined : { block, index: Number(tx.transactionIndex) };
  }

  /** The chain's own object for a fetched block (the same one each time, so recordings are shared). */
  private known(block: Block | undefined): ChainBlock | undefined {
    if (block === undefined) return undefined;
    return this.blocks.get(bytesToUnprefixedHex(block.hash())) ?? this.remember(block);
  }

  private remember(block: Block): ChainBlock {
    const entry = chainBlockOf(block);
    const dropped = keep(this.blocks, bytesToUnprefixedHex(entry.hash), entry, KEEP_BLOCKS);
    for (const tx of dropped?.block.transactions ?? []) this.txIndex.delete(bytesToUnprefixedHex(tx.hash()));
    block.transactions.forEach((tx, index) => this.txIndex.set(bytesToUnprefixedHex(tx.hash()), { block: entry, index }));
    return entry;
  }
}

/** `pending` is the latest block here, as in fixture mode (a pending block cannot be traced). */
function tagOf(tag: ChainTag): string {
  return tag === 'pending' ? 'latest' : tag;
}

/** Sets `key` and drops the oldest entry past `limit`; returns what was dropped. */
function keep<V>(map: Map<string, V>, key: string, value: V, limit: number): V | undefined {
  map.set(key, value);
  if (map.size <= limit) return undefined;
  const [oldest, dropped] = map.entries().next().value as [string, V];
  map.delete(oldest);
  return dropped;
}
