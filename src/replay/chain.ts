// A fixture chain held in memory: every block replayed once at load (headers checked), each block's
// post-state root kept, and later work for block N run from root(N-1), never from genesis.
import type { Block } from '@ethereumjs/block';
import type { Common } from '@ethereumjs/common';
import { type RunBlockResult, type VM, createVM, runBlock } from '@ethereumjs/vm';
import { bytesToHex, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util';
import { FixtureError } from '../errors/fixtureError.ts';
import type { ChainSpec } from '../fixture/types.ts';
import type { BlockRecording, StepSink, TxRecording } from '../trace/types.ts';
import { buildGenesis, buildTraceTestBlock, decodeBlock, decodeBlockAgain, sealBlock, transactionCount } from './blocks.ts';
import { recordCalls, type TracedCalls } from './callTrace.ts';
import { type ChainBlock, type ChainView, type Preimages, type ReceiptInfo, type RecordOptions, type StateReader, type TxLocation, chainBlockOf } from './chainView.ts';
import { intermediateRoots } from './intermediateRoots.ts';
import { PreimageIndex } from './preimages.ts';
import { createBlockFromRLP } from '@ethereumjs/block';
import { StateReaders } from './stateReader.ts';
import { type CallOutcome, type CallOverrides, type CallWatch, executeCall } from './callExec.ts';
import type { CallRequest } from './message.ts';
import { makeCommon } from './common.ts';
import { checkExpectedEnd, refusalAsExpected } from './expectedEnd.ts';
import { writeGenesisAlloc } from './genesisState.ts';
import { keccakNow, loadKeccak, loadKeccakLater } from './keccak.ts';
import { kzgMissed, lazyKzg, preloadKzg } from './kzg.ts';
import { Recorder } from './recorder.ts';
import { type Snapshot, type SnapshotBlock, decodeReceipts, snapshotBlock } from './snapshotData.ts';
import type { EVM } from '@ethereumjs/evm';
import { simulate } from './simulate/simulate.ts';
import { maybeYield } from './cooperative.ts';
import { yieldOnJumps } from './opcodeHooks.ts';
import type { SimBlockResult, SimRequest } from './simulate/types.ts';
import { RecordingStore, recordRun } from './recordings.ts';
import { ReplayStateManager, replayCaches } from './replayState.ts';
import { StateHistory } from './stateHistory.ts';
import { batchScratchTries } from './scratchTries.ts';
import { SenderPool } from './senders.ts';
import { applyStateEdits } from './stateEdits.ts';
import { DecodedCache, type DecodedLimits } from './decodedCache.ts';
import { type DecodeAgain, StoredBlock } from './storedBlock.ts';
import { receiptInfos, withBlooms } from './receipts.ts';
import { ChainIndex, ChainIndexBuilder, type IndexedTx } from '../chainIndex/chainIndex.ts';
import { type LogTable, LogTableBuilder } from '../chainIndex/logTable.ts';
import { decodeRecording } from '../recordingCodec/decodeRecording.ts';
import { encodeRecording } from '../recordingCodec/encodeRecording.ts';
import { parityCreations, parityTouched } from '../trace/render/parityTouched.ts';
import { blockRecording, runOptions } from './runOptions.ts';

/** After a start from a snapshot, when the WebAssembly keccak is made (keccak.ts). */
const LOAD_KECCAK_AFTER_MS = 1000;

/** Recordings kept per chain (the oldest made goes first): bounds memory on long fixtures. */
const KEEP_RECORDINGS = 256;

/** A replay snapshot to start from, and where to keep the one a replay makes (src/cache/). */
export interface ReplayCache {
  readonly snapshot?: Snapshot | undefined;
  save?(snapshot: Snapshot): void;
  /** One line for a snapshot that does not fit the fixture (then the fixture is replayed). */
  warn?(line: string): void;
}

/** A snapshot whose roots or receipts do not fit the fixture's headers. */
class SnapshotMismatch extends Error {}

export interface LoadProgress {
  /** `head`: the number of the block just replayed (or restored); `phase`: which the load is doing. */
  (done: number, total: number, txs: number, head: bigint, phase?: LoadPhase): void;
}

/** A load replays the blocks, or restores them from a replay snapshot. */
export type LoadPhase = 'replaying' | 'restoring';

export class FixtureChain implements ChainView {
  readonly label: string;
  readonly forkConfig: Readonly<Record<string, unknown>>;
  private readonly byNumber = new Map<bigint, StoredBlock>();
  private readonly byHash = new Map<string, StoredBlock>();
  /** Transactions by hash (hex), made when first asked: a start from a snapshot need not hash-index 10,000 of them. */
  private txIndex: Map<string, TxLocation> | undefined;
  // Frames-only recordings are read from the load's (each block keeps its own, encoded), the others
  // made on demand; rendered answers stay in the RPC layer's result cache.
  private readonly recordings = new RecordingStore(KEEP_RECORDINGS, (block) => {
    const stored = this.byHash.get(bytesToUnprefixedHex(block.hash));
    return stored?.recording === undefined ? undefined : decodeRecording(stored.recording, stored);
  });
  private readonly readers: StateReaders;
  private readonly genesisAlloc: ChainSpec['genesis']['alloc'];
  private preimageIndex: Promise<Preimages> | undefined;

  private constructor(
    spec: ChainSpec,
    private readonly vm: VM,
    private readonly recorder: Recorder,
    readonly chainId: bigint,
    private readonly ordered: StoredBlock[],
    private readonly stateManager: ReplayStateManager,
    readonly chainIndex: ChainIndex,
    readonly logTable: LogTable,
    /** The blocks' decoded forms and parsed receipts, within its limits (storedBlock.ts). */
    readonly decodedCache: DecodedCache,
  ) {
    this.label = `${spec.path} (${spec.format})`;
    this.forkConfig = spec.genesis.config;
    this.readers = new StateReaders(stateManager);
    this.genesisAlloc = spec.genesis.alloc;
    for (const b of ordered) this.index(b);
  }

  get genesis(): ChainBlock {
    return this.ordered[0]!;
  }
  get head(): ChainBlock {
    return this.ordered[this.ordered.length - 1]!;
  }
  get finalized(): ChainBlock {
    return this.head;
  }
  get safe(): ChainBlock {
    return this.head;
  }

  /** Counted from the blocks' transaction hashes, so no block is decoded for it. */
  get transactionCount(): number {
    return this.ordered.reduce((n, b) => n + b.txHashes.length, 0);
  }

  blockByNumber(n: bigint): ChainBlock | undefined {
    return this.byNumber.get(n);
  }
  blockByHash(hash: Uint8Array): ChainBlock | undefined {
    return this.byHash.get(bytesToUnprefixedHex(hash));
  }
  txByHash(hash: Uint8Array): TxLocation | undefined {
    return this.transactionIndex().get(bytesToUnprefixedHex(hash));
  }
  receipts(block: ChainBlock): readonly ReceiptInfo[] {
    return this.byHash.get(bytesToUnprefixedHex(block.hash))?.receipts ?? [];
  }
  /**
   * As `receipts`: what a read over the whole chain parses is kept only as the blocks' DecodedCache
   * keeps any block's, within its bound; kept, a block's are parsed once for all the transactions of
   * it such a read takes (an Otterscan page of a sender's history takes several of most blocks).
   */
  readonly receiptsOnce = (block: ChainBlock): readonly ReceiptInfo[] => this.receipts(block);

  readonly stateAfter = (block: ChainBlock): Promise<StateReader> => {
    const stored = this.byHash.get(bytesToUnprefixedHex(block.hash));
    if (stored === undefined) return Promise.reject(new Error(`block ${block.number} is not in the chain`));
    return this.readers.at(stored.stateRoot);
  };

  readonly call = (block: ChainBlock, request: CallRequest, overrides?: CallOverrides, watch?: CallWatch): Promise<CallOutcome> => {
    const stored = this.byHash.get(bytesToUnprefixedHex(block.hash));
    if (stored === undefined) return Promise.reject(new Error(`block ${block.number} is not in the chain`));
    return executeCall(this.stateManager, stored.stateRoot, stored.block, this.vm.blockchain, request, overrides, watch);
  };

  readonly traceCalls = (block: ChainBlock, request: TracedCalls, options?: RecordOptions): Promise<TxRecording[]> => {
    const stored = this.byHash.get(bytesToUnprefixedHex(block.hash));
    if (stored === undefined) return Promise.reject(new Error(`block ${block.number} is not in the chain`));
    return this.recordings.exclusive(() => recordCalls(this.vm, this.recorder, stored.block, stored.stateRoot, request, options?.state === true, options?.steps));
  };

  readonly simulate = (block: ChainBlock, request: SimRequest): Promise<SimBlockResult[]> => {
    const stored = this.byHash.get(bytesToUnprefixedHex(block.hash));
    if (stored === undefined) return Promise.reject(new Error(`block ${block.number} is not in the chain`));
    return this.recordings.exclusive(() => simulate(this.vm, this.recorder, stored.block, stored.stateRoot, request));
  };

  readonly preimages = (): Promise<Preimages> => {
    this.preimageIndex ??= this.collectPreimages();
    this.preimageIndex.catch(() => (this.preimageIndex = undefined));
    return this.preimageIndex;
  };

  /** Every block recorded once with state (not kept: the recordings' cache stays for traces). */
  private async collectPreimages(): Promise<Preimages> {
    const index = new PreimageIndex(await loadKeccak());
    index.addAlloc(this.genesisAlloc);
    for (const block of this.ordered.slice(1)) {
      index.addBlock(block, await this.recordings.exclusive(() => this.record(block, true)));
    }
    return index;
  }

  // the roots are computed on the parent's state written out as a trie, taken out again after
  readonly intermediateRoots = (block: ChainBlock): Promise<Uint8Array[]> =>
    this.recordings.exclusive(() => this.stateManager.scratch(() => intermediateRoots(this.vm, block.block, this.parentOf(block).stateRoot)));

  readonly blockFromRlp = (rlp: Uint8Array): ChainBlock => {
    const block = createBlockFromRLP(rlp, { common: this.vm.common, setHardfork: true, skipConsensusFormatValidation: true });
    return chainBlockOf(block);
  };

  /**
   * Forgets every recording made or read and every block decoded (they are made again on demand);
   * with `kept`, also the load's recordings, so that every block is run again when asked for: for
   * tests and benchmarks.
   */
  clearCaches(kept = false): void {
    this.recordings.clear(kept);
    this.decodedCache.clear();
  }

  recordBlock(block: ChainBlock, options?: RecordOptions): Promise<BlockRecording> {
    return this.recordings.get(block, options, (state, steps) => this.record(block, state, steps));
  }

  private record(block: ChainBlock, state: boolean, steps?: StepSink): Promise<BlockRecording> {
    // a block of the chain has its root; one given as RLP (debug_traceBlock) names its own
    return recordRun(this.vm, this.recorder, block.block, this.parentOf(block).stateRoot, (block as Partial<StoredBlock>).stateRoot ?? block.block.header.stateRoot, state, steps);
  }

  private parentOf(block: ChainBlock): StoredBlock {
    const parent = this.byHash.get(bytesToUnprefixedHex(block.block.header.parentHash));
    if (parent === undefined) throw new Error(`parent of block ${block.number} is not in the chain`);
    return parent;
  }

  private index(b: StoredBlock): void {
    this.byNumber.set(b.number, b);
    this.byHash.set(bytesToUnprefixedHex(b.hash), b);
  }

  private transactionIndex(): Map<string, TxLocation> {
    if (this.txIndex === undefined) {
      this.txIndex = new Map();
      for (const b of this.ordered) b.txHashes.forEach((hash, i) => this.txIndex!.set(bytesToUnprefixedHex(hash), { block: b, index: i }));
    }
    return this.txIndex;
  }

  // ---- loading --------------------------------------------------------------------------------

  /** `limits`: how many blocks' decoded forms the chain keeps (decodedCache.ts; tests give small ones). */
  static async load(spec: ChainSpec, progress?: LoadProgress, cache?: ReplayCache, limits?: DecodedLimits): Promise<FixtureChain> {
    if (cache?.snapshot !== undefined) {
      try {
        return await FixtureChain.replay(spec, progress, cache, limits);
      } catch (err) {
        if (!(err instanceof SnapshotMismatch)) throw err;
        cache.warn?.(`blocktrace: ignoring the replay cache (${err.message}); replaying the fixture`);
      }
    }
    return FixtureChain.replay(spec, progress, cache === undefined ? undefined : { ...cache, snapshot: undefined }, limits);
  }

  private static async replay(spec: ChainSpec, progress?: LoadProgress, cache?: ReplayCache, limits?: DecodedLimits): Promise<FixtureChain> {
    batchScratchTries();
    const snapshot = cache?.snapshot;
    const vouched = snapshot !== undefined && genesisRootVouched(spec);
    if (vouched && snapshot.roots.length === 0) throw new SnapshotMismatch('another number of blocks');
    const keccak = snapshot !== undefined ? keccakNow : await loadKeccak();
    if (snapshot !== undefined) loadKeccakLater(LOAD_KECCAK_AFTER_MS);
    const common = makeCommon(spec.path, spec.genesis, lazyKzg, keccak, spec.transactionsAlone === true);
    const stateManager = new ReplayStateManager({ common, caches: replayCaches() }, keccak);
    // a replay records every block's changes, the genesis alloc's first; a snapshot has them
    const history = snapshot === undefined ? new StateHistory(keccak(Uint8Array.of(0x80))) : undefined;
    if (history !== undefined) {
      stateManager.useHistory(history);
      history.begin(0);
    }
    const genesisRoot = vouched ? snapshot.roots[0]! : await writeGenesisAlloc(spec.path, stateManager, spec.genesis);
    history?.commit(genesisRoot);
    if (vouched && spec.genesisStateRoot !== undefined && !equalsBytes(spec.genesisStateRoot, genesisRoot)) throw new SnapshotMismatch('another genesis state');
    if (spec.genesisStateRoot !== undefined && !equalsBytes(spec.genesisStateRoot, genesisRoot)) {
      throw new FixtureError(`${spec.path}: genesis state root mismatch: expected ${bytesToHex(spec.genesisStateRoot)}, got ${bytesToHex(genesisRoot)}`);
    }
    // BLOCKHASH reads earlier blocks through this, and only their hashes: no block is decoded for it
    const blocks = new Map<bigint, { readonly hash: Uint8Array }>();
    const blockchain = {
      getBlock: async (n: number | bigint | Uint8Array) => {
        // a capture starts at N−1: BLOCKHASH of older blocks needs only their hashes
        const hash = typeof n === 'object' ? undefined : (blocks.get(BigInt(n))?.hash ?? spec.partial?.ancestorHashes.get(BigInt(n)));
        if (hash === undefined) throw new Error(`block ${String(n)} not found`);
        return { hash: () => hash };
      },
      shallowCopy() { return this; },
    };
    const vm = await createVM({ common, stateManager, blockchain: blockchain as never });
    // Attached before the load-time replay (idle until start()): its opcode hooks also install the
    // jump-analysis cache, which the load benefits from.
    const recorder = new Recorder(vm);
    // a long load, trace or call gives the event loop a turn now and then (health checks, signals)
    yieldOnJumps(vm.evm as EVM);
    vm.events.on('beforeTx', (_tx: unknown, resolve?: (r?: unknown) => void) => {
      const turn = maybeYield();
      if (turn === undefined) resolve?.();
      else void turn.then(() => resolve?.());
    });
    const genesisBlock = buildGenesis(spec, common, genesisRoot);
    const decodedCache = new DecodedCache(limits);
    const ordered: StoredBlock[] = [StoredBlock.of(genesisBlock, genesisRoot, [], decodedCache)];
    blocks.set(genesisBlock.header.number, ordered[0]!);
    let index: ChainIndex;
    let logs: LogTable;
    const saved: SnapshotBlock[] = [];
    if (snapshot !== undefined) {
      restoreSnapshot(spec, common, stateManager, snapshot, genesisRoot, ordered, blocks, decodedCache, progress);
      index = snapshot.index;
      logs = snapshot.logs;
    } else {
      const rlp = (i: number): Uint8Array | undefined => (spec.traceTest === undefined && spec.blocks[i] instanceof Uint8Array ? spec.blocks[i] : undefined);
      const recover = spec.senders === undefined || spec.senders.size === 0;
      let senders: SenderPool | undefined;
      let blockAt: (i: number) => Block;
      const count = spec.traceTest !== undefined ? 1 : spec.blocks.length;
      if (spec.traceTest === undefined && spec.blocks.every((b) => b instanceof Uint8Array)) {
        // every block as RLP: each decoded when its turn comes and let go once it has run, so a load
        // holds one decoded block at a time; the worker recovers senders ahead from the RLP
        const counts = spec.blocks.map((b, i) => {
          try {
            return transactionCount(b as Uint8Array);
          } catch (error) {
            throw new FixtureError(`${spec.path}: block ${i + 1} cannot be decoded (${(error as Error).message})`);
          }
        });
        senders = recover ? SenderPool.ahead(counts, (i) => spec.blocks[i] as Uint8Array) : undefined;
        blockAt = (i) => {
          // decoded unsealed: the sender worker's pool gives each transaction its own methods first (senders.ts)
          const block = decodeBlock(spec, common, i, false);
          senders?.adopt(i, block);
          sealBlock(block);
          return block;
        };
      } else {
        const decoded = spec.traceTest !== undefined ? [buildTraceTestBlock(spec, common, genesisBlock)] : spec.blocks.map((_, i) => decodeBlock(spec, common, i, false));
        senders = recover ? SenderPool.start(decoded, rlp) : undefined;
        decoded.forEach(sealBlock);
        blockAt = (i) => decoded[i]!;
      }
      const indexed = new ChainIndexBuilder(genesisBlock.header.number);
      indexed.addBlock([]);
      const logged = new LogTableBuilder(genesisBlock.header.number);
      logged.addBlock([]);
      // a block of the fixture's RLP is decoded again when asked for; the others keep their Block
      const again = (i: number): DecodeAgain | undefined => (rlp(i) === undefined ? undefined : (senderOf) => decodeBlockAgain(spec, common, i, senderOf));
      try {
        await replayBlocks(spec, vm, recorder, { count, at: blockAt, done: (i, n) => senders?.release(i, n) }, ordered, saved, blocks, { txs: indexed, logs: logged }, history!, { cache: decodedCache, again }, progress);
      } finally {
        senders?.stop();
        history!.stop();
      }
      index = indexed.build();
      logs = logged.build();
    }
    const head = ordered[ordered.length - 1]!;
    await checkExpectedEnd(spec, common, head.hash, head.stateRoot, () => head.receipts.flatMap((r) => r.logs));
    // every state is read by history from now on: the latest trie's nodes go (the code stays)
    stateManager.dropTrieNodes();
    if (snapshot === undefined) {
      cache?.save?.({ roots: ordered.map((b) => b.stateRoot), blocks: saved, nodes: new Map(stateManager.database()), history: history!.encodePieces(), index, logs });
    }
    return new FixtureChain(spec, vm, recorder, common.chainId(), ordered, stateManager, index, logs, decodedCache);
  }
}

/**
 * Runs every decoded block after the last of `ordered`, checks its header, and stores it there
 * with its recording (frames only) and receipts, encoded as its snapshot entry (put in `saved`)
 * keeps them; the recording gives each transaction's entry in the chain index, the receipts the
 * block's logs in the log table. A block `again` can decode keeps no Block (storedBlock.ts).
 */
async function replayBlocks(
  spec: ChainSpec,
  vm: VM,
  recorder: Recorder,
  decoded: { readonly count: number; at(i: number): Block; done(i: number, transactions: number): void },
  ordered: StoredBlock[],
  saved: SnapshotBlock[],
  blocks: Map<bigint, { readonly hash: Uint8Array }>,
  index: { readonly txs: ChainIndexBuilder; readonly logs: LogTableBuilder },
  history: StateHistory,
  decoding: { readonly cache: DecodedCache; readonly again: (i: number) => DecodeAgain | undefined },
  progress: LoadProgress | undefined,
): Promise<void> {
  let txs = 0;
  let uncollected = 0;
  let collectEvery = COLLECT_EVERY;
  for (let i = 0; i < decoded.count; i++) {
    const block = decoded.at(i);
    const parent = ordered[ordered.length - 1]!;
    if (spec.traceTest === undefined && !equalsBytes(block.header.parentHash, parent.hash)) {
      throw new FixtureError(`${spec.path}: block ${block.header.number} (${bytesToHex(block.hash())}) does not follow block ${parent.number} (parentHash ${bytesToHex(block.header.parentHash)}, want ${bytesToHex(parent.hash)})`);
    }
    blocks.set(block.header.number, { hash: block.hash() });
    let result: RunBlockResult;
    let recorded: TxRecording[];
    try {
      // each run of the block records its changes afresh (runChecked may run it twice)
      ({ result, recorded } = await runChecked(spec, vm, recorder, i, block, parent.stateRoot, i === 0, () => history.begin(i + 1)));
    } catch (error) {
      const refused = refusalAsExpected(spec, (error as Error).message);
      throw new FixtureError(refused ?? `${spec.path}: block ${block.header.number} (${bytesToHex(block.hash())}) does not replay: ${(error as Error).message}`);
    }
    if (spec.traceTest === undefined) checkHeader(spec, i, block, result);
    txs += block.transactions.length;
    const receipts = receiptInfos(block, result);
    index.logs.addBlock(receipts.map((r) => r.logs));
    index.txs.addBlock(recorded.map((tx, t): IndexedTx => ({
      touched: parityTouched(tx),
      creations: parityCreations(tx),
      sender: bytesToHex(receipts[t]!.from),
      nonce: block.transactions[t]!.nonce,
    })));
    const recording = encodeRecording(blockRecording(block, recorded));
    // A capture's edits before the next block go into this block's state, as the node's state at
    // this block shows them; traces, calls and reads at it then see them too.
    const edits = spec.partial?.edits?.get(i + 1);
    let root = result.stateRoot;
    if (edits !== undefined) {
      await applyStateEdits(vm.stateManager, edits);
      root = await vm.stateManager.getStateRoot();
    }
    history.commit(root);
    (vm.stateManager as ReplayStateManager).prune();
    const entry = snapshotBlock(block.hash(), block.transactions.map((tx) => tx.hash()), receipts, recording);
    saved.push(entry);
    // parsed from the entry, as a snapshot's are; made outside this loop, whose scope (which a
    // closure made here would hold) has the Block and its receipts
    const read = receiptsOf(entry, vm.common);
    const again = decoding.again(i);
    ordered.push(again === undefined ? StoredBlock.of(block, root, read, decoding.cache, recording) : StoredBlock.replayed(block, root, entry.txHashes, again, read, decoding.cache, recording));
    blocks.set(block.header.number, ordered[ordered.length - 1]!);
    decoded.done(i, block.transactions.length);
    uncollected += block.transactions.length;
    if (uncollected >= collectEvery) {
      uncollected = 0;
      collectEvery = collectNow();
    }
    progress?.(i + 1, decoded.count, txs, block.header.number, 'replaying');
    await maybeYield();
  }
}

/** Transactions a load replays between two collections at least (collectNow). */
const COLLECT_EVERY = 1024;
/** Transactions between two collections per MB of heap left by the last one (collectNow). */
const COLLECT_PER_MB = 4;

/**
 * A full garbage collection, where the runtime offers one (Bun), every so many transactions a load
 * replays: each block leaves its decoded transactions, their runs and their trie writes behind,
 * which JavaScriptCore lets grow to several times what the load holds. The transactions until the
 * next one (returned) grow with the heap left, so that collections cost the same share of a load
 * however long the chain. A collection alone: Bun.shrink would also give the pages back, but it
 * throws away the compiled code. The two constants are the trade of time against peak memory
 * measured in docs/performance.md, "Figures behind the code".
 */
function collectNow(): number {
  const bun = (globalThis as { Bun?: { gc(force: boolean): void } }).Bun;
  if (bun === undefined) return Number.POSITIVE_INFINITY;
  bun.gc(true);
  return Math.max(COLLECT_EVERY, Math.round((COLLECT_PER_MB * process.memoryUsage().heapUsed) / 1e6));
}

/** A block's receipts parsed from its snapshot entry when called. */
function receiptsOf(entry: SnapshotBlock, common: Common): () => readonly ReceiptInfo[] {
  return () => withBlooms(decodeReceipts(entry.receipts), common);
}

/**
 * runBlock of block `i` on the state as it stands (from `parentRoot` when `fromRoot`), with the
 * recorder attached (frames only). Where the header holds every value expected of the run,
 * runBlock checks them itself (generate: false), which spares its rebuilding of the block and its
 * transaction trie; a block whose check fails there is run again from its parent's root with
 * generate: true, so checkHeader names what differs. A run that needed the KZG setup before it was
 * loaded is run again too.
 */
async function runChecked(
  spec: ChainSpec, vm: VM, recorder: Recorder, i: number, block: Block, parentRoot: Uint8Array, fromRoot: boolean, attempt: () => void,
): Promise<{ result: RunBlockResult; recorded: TxRecording[] }> {
  const headerIsExpected = spec.traceTest === undefined && spec.partial === undefined && !spec.stateRootOverrides.has(i);
  let run: { result: RunBlockResult; recorded: TxRecording[] } | undefined;
  if (headerIsExpected) {
    try {
      attempt();
      run = await recordedRun(vm, recorder, block, { ...runOptions(block, fromRoot ? parentRoot : undefined), generate: false });
    } catch {
      run = undefined;
    }
  } else {
    attempt();
    run = await recordedRun(vm, recorder, block, runOptions(block, fromRoot ? parentRoot : undefined));
  }
  // asked once: kzgMissed() clears what it answers
  const missed = kzgMissed();
  if (run === undefined || missed) {
    if (missed) await preloadKzg();
    attempt();
    run = await recordedRun(vm, recorder, block, runOptions(block, parentRoot));
  }
  return run;
}

/** One runBlock with the recorder attached; its recordings are those of this run alone. */
async function recordedRun(vm: VM, recorder: Recorder, block: Block, options: Parameters<typeof runBlock>[1]): Promise<{ result: RunBlockResult; recorded: TxRecording[] }> {
  recorder.start(block, false);
  let result: RunBlockResult;
  try {
    result = await runBlock(vm, options);
  } catch (error) {
    try {
      recorder.finish();
    } catch {
      // the run's own error says more than what the recorder saw of it
    }
    throw error;
  }
  return { result, recorded: recorder.finish() };
}

/**
 * Whether a snapshot's genesis root need not be made again from the alloc: the fixture names its
 * own genesis root, or block 1's parent hash is the hash of a genesis header built with that root
 * (restoreSnapshot checks it follows). The snapshot's database holds the genesis nodes too.
 */
function genesisRootVouched(spec: ChainSpec): boolean {
  if (spec.genesisStateRoot !== undefined) return true;
  return spec.genesisHeaderRlp === undefined && spec.traceTest === undefined && spec.partial === undefined && spec.blocks.length > 0;
}

/**
 * A snapshot in place of the replay: its nodes become the state database, its roots, transaction
 * hashes and receipts the blocks' own, each block checked against its header (state root, logs
 * bloom, gas used) as the replay checks them. Blocks given as RLP are decoded only when first used
 * (StoredBlock.restored); the others now, their transactions counted against the snapshot's.
 */
function restoreSnapshot(
  spec: ChainSpec,
  common: Common,
  stateManager: ReplayStateManager,
  snapshot: Snapshot,
  genesisRoot: Uint8Array,
  ordered: StoredBlock[],
  blocks: Map<bigint, { readonly hash: Uint8Array }>,
  cache: DecodedCache,
  progress: LoadProgress | undefined,
): void {
  const count = spec.traceTest !== undefined ? 1 : spec.blocks.length;
  if (snapshot.roots.length !== count + 1 || snapshot.blocks.length !== count) throw new SnapshotMismatch('another number of blocks');
  if (!equalsBytes(snapshot.roots[0]!, genesisRoot)) throw new SnapshotMismatch('another genesis state');
  // the snapshot's database holds the code; every state is read by its history
  stateManager.useDatabase(snapshot.nodes instanceof Map ? snapshot.nodes : new Map(snapshot.nodes));
  const history = StateHistory.lazy(snapshot.history instanceof Uint8Array ? snapshot.history : Buffer.concat(snapshot.history), stateManager.emptyRoot);
  if (history.versions !== count + 1) throw new SnapshotMismatch('another number of blocks');
  stateManager.useHistory(history);
  let txs = 0;
  for (let i = 0; i < count; i++) {
    const root = snapshot.roots[i + 1]!;
    const saved = snapshot.blocks[i]!;
    const receipts = (): readonly ReceiptInfo[] => withBlooms(decodeReceipts(saved.receipts), common);
    const entry = spec.blocks[i];
    const stored =
      spec.traceTest !== undefined ? StoredBlock.of(buildTraceTestBlock(spec, common, ordered[0]!.block), root, receipts, cache, saved.recording)
      : entry instanceof Uint8Array ? StoredBlock.restored(entry, common, saved.hash, root, saved.txHashes, (senderOf) => decodeBlockAgain(spec, common, i, senderOf), receipts, cache, saved.recording)
      : StoredBlock.of(decodeBlock(spec, common, i), root, receipts, cache, saved.recording);
    const h = stored.facts;
    const parent = ordered[ordered.length - 1]!;
    if (spec.traceTest === undefined && !equalsBytes(h.parentHash, parent.hash)) throw new SnapshotMismatch(`block ${h.number} does not follow its parent`);
    if (saved.txHashes.length !== stored.txHashes.length) throw new SnapshotMismatch(`block ${h.number}: another number of transactions`);
    if (spec.traceTest === undefined) {
      const expectedRoot = spec.stateRootOverrides.get(i) ?? h.stateRoot;
      if (spec.partial === undefined && !equalsBytes(expectedRoot, root)) throw new SnapshotMismatch(`block ${h.number}: stateRoot differs from the header's`);
      if (!equalsBytes(saved.logsBloom, h.logsBloom)) throw new SnapshotMismatch(`block ${h.number}: logsBloom differs from the header's`);
      if (saved.gasUsed !== h.gasUsed) throw new SnapshotMismatch(`block ${h.number}: gasUsed differs from the header's`);
    }
    txs += stored.txHashes.length;
    ordered.push(stored);
    blocks.set(h.number, stored);
    progress?.(i + 1, count, txs, h.number, 'restoring');
  }
}

function checkHeader(spec: ChainSpec, i: number, block: Block, result: RunBlockResult): void {
  const h = block.header;
  const expectedRoot = spec.stateRootOverrides.get(i) ?? h.stateRoot;
  const mismatch = (field: string, expected: string, got: string): never => {
    throw new FixtureError(`${spec.path}: block ${h.number} (${bytesToHex(block.hash())}) ${field} mismatch: expected ${expected}, got ${got}`);
  };
  // A partial state has no true root, nor do the receipts of pre-Byzantium blocks, which carry one.
  const partial = spec.partial !== undefined;
  if (!partial && !equalsBytes(expectedRoot, result.stateRoot)) mismatch('stateRoot', bytesToHex(expectedRoot), bytesToHex(result.stateRoot));
  const rootsInReceipts = !block.common.gteHardfork('byzantium');
  if (!(partial && rootsInReceipts) && !equalsBytes(h.receiptTrie, result.receiptsRoot)) mismatch('receiptsRoot', bytesToHex(h.receiptTrie), bytesToHex(result.receiptsRoot));
  if (!equalsBytes(h.logsBloom, result.logsBloom)) mismatch('logsBloom', bytesToHex(h.logsBloom), bytesToHex(result.logsBloom));
  if (h.gasUsed !== result.gasUsed) mismatch('gasUsed', String(h.gasUsed), String(result.gasUsed));
}
