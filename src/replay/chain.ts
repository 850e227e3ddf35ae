// A fixture chain held in memory: every block replayed once at load (headers checked), each block's
// post-state root kept, and later work for block N run from root(N-1), never from genesis.
import { type Block, createBlock, createBlockFromRLP, createBlockFromRPC, createBlockHeader, createBlockHeaderFromRLP } from '@ethereumjs/block';
import { type Common, ConsensusType } from '@ethereumjs/common';
import { createTxFromRLP } from '@ethereumjs/tx';
import { MerkleStateManager, Caches } from '@ethereumjs/statemanager';
import { type RunBlockResult, type VM, createVM, runBlock } from '@ethereumjs/vm';
import { bytesToHex, bytesToUnprefixedHex, createAddressFromString, equalsBytes } from '@ethereumjs/util';
import { FixtureError } from '../errors/fixtureError.ts';
import type { ChainSpec } from '../fixture/types.ts';
import type { BlockRecording, TxRecording } from '../trace/types.ts';
import { recordCalls, type TracedCalls } from './callTrace.ts';
import type { ChainBlock, ChainView, ReceiptInfo, RecordOptions, StateReader, TxLocation } from './chainView.ts';
import { StateReaders } from './stateReader.ts';
import { type CallOutcome, type CallOverrides, type CallRequest, type CallWatch, executeCall } from './callExec.ts';
import { makeCommon } from './common.ts';
import { checkExpectedEnd } from './expectedEnd.ts';
import { writeGenesisAlloc } from './genesisState.ts';
import { loadKeccak } from './keccak.ts';
import { kzgMissed, lazyKzg, preloadKzg } from './kzg.ts';
import { Recorder } from './recorder.ts';
import type { Snapshot } from '../cache/snapshot.ts';
import { RecordingStore, recordRun } from './recordings.ts';
import { runOptions } from './runOptions.ts';
import { receiptInfos } from './receipts.ts';

/** Recordings kept per chain (the oldest made goes first): bounds memory on long fixtures. */
const KEEP_RECORDINGS = 256;

interface StoredBlock extends ChainBlock {
  /** Post-state root of this block. */
  readonly stateRoot: Uint8Array;
  receipts: readonly ReceiptInfo[];
}

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
  /** `head`: the number of the block just replayed. */
  (done: number, total: number, txs: number, head: bigint): void;
}

export class FixtureChain implements ChainView {
  readonly label: string;
  private readonly byNumber = new Map<bigint, StoredBlock>();
  private readonly byHash = new Map<string, StoredBlock>();
  private readonly txIndex = new Map<string, TxLocation>();
  // Recordings are remade on demand; rendered answers stay in the RPC layer's result cache.
  private readonly recordings = new RecordingStore(KEEP_RECORDINGS);
  private readonly readers: StateReaders;

  private constructor(
    spec: ChainSpec,
    private readonly vm: VM,
    private readonly recorder: Recorder,
    readonly chainId: bigint,
    private readonly ordered: StoredBlock[],
    private readonly stateManager: MerkleStateManager,
  ) {
    this.label = `${spec.path} (${spec.format})`;
    this.readers = new StateReaders(stateManager);
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

  blockByNumber(n: bigint): ChainBlock | undefined {
    return this.byNumber.get(n);
  }
  blockByHash(hash: Uint8Array): ChainBlock | undefined {
    return this.byHash.get(bytesToUnprefixedHex(hash));
  }
  txByHash(hash: Uint8Array): TxLocation | undefined {
    return this.txIndex.get(bytesToUnprefixedHex(hash));
  }
  receipts(block: ChainBlock): readonly ReceiptInfo[] {
    return this.byHash.get(bytesToUnprefixedHex(block.hash))?.receipts ?? [];
  }

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
    return this.recordings.exclusive(() => recordCalls(this.vm, this.recorder, stored.block, stored.stateRoot, request, options?.state === true));
  };

  /** Forgets every recording (they are rebuilt on demand): for tests and benchmarks. */
  clearCaches(): void {
    this.recordings.clear();
  }

  recordBlock(block: ChainBlock, options?: RecordOptions): Promise<BlockRecording> {
    return this.recordings.get(block, options?.state === true, (state) => this.record(block, state));
  }

  private record(block: ChainBlock, state: boolean): Promise<BlockRecording> {
    return recordRun(this.vm, this.recorder, block.block, this.parentOf(block).stateRoot, (block as StoredBlock).stateRoot, state);
  }

  private parentOf(block: ChainBlock): StoredBlock {
    const parent = this.byHash.get(bytesToUnprefixedHex(block.block.header.parentHash));
    if (parent === undefined) throw new Error(`parent of block ${block.number} is not in the chain`);
    return parent;
  }

  private index(b: StoredBlock): void {
    this.byNumber.set(b.number, b);
    this.byHash.set(bytesToUnprefixedHex(b.hash), b);
    b.block.transactions.forEach((tx, i) => this.txIndex.set(bytesToUnprefixedHex(tx.hash()), { block: b, index: i }));
  }

  // ---- loading --------------------------------------------------------------------------------

  static async load(spec: ChainSpec, progress?: LoadProgress, cache?: ReplayCache): Promise<FixtureChain> {
    if (cache?.snapshot !== undefined) {
      try {
        return await FixtureChain.replay(spec, progress, cache);
      } catch (err) {
        if (!(err instanceof SnapshotMismatch)) throw err;
        cache.warn?.(`blocktrace: ignoring the replay cache (${err.message}); replaying the fixture`);
      }
    }
    return FixtureChain.replay(spec, progress, cache === undefined ? undefined : { ...cache, snapshot: undefined });
  }

  private static async replay(spec: ChainSpec, progress?: LoadProgress, cache?: ReplayCache): Promise<FixtureChain> {
    const common = makeCommon(spec.path, spec.genesis, lazyKzg, await loadKeccak());
    const stateManager = new MerkleStateManager({ common, caches: new Caches() });
    const genesisRoot = await writeGenesisAlloc(spec.path, stateManager, spec.genesis);
    if (spec.genesisStateRoot !== undefined && !equalsBytes(spec.genesisStateRoot, genesisRoot)) {
      throw new FixtureError(`${spec.path}: genesis state root mismatch: expected ${bytesToHex(spec.genesisStateRoot)}, got ${bytesToHex(genesisRoot)}`);
    }
    const blocks = new Map<bigint, Block>();
    const blockchain = {
      getBlock: async (n: number | bigint | Uint8Array) => {
        const block = typeof n === 'object' ? undefined : blocks.get(BigInt(n));
        if (block !== undefined) return block;
        // a capture starts at N−1: BLOCKHASH of older blocks needs only their hashes
        const hash = typeof n === 'object' ? undefined : spec.partial?.ancestorHashes.get(BigInt(n));
        if (hash === undefined) throw new Error(`block ${String(n)} not found`);
        return { hash: () => hash };
      },
      shallowCopy() { return this; },
    };
    const vm = await createVM({ common, stateManager, blockchain: blockchain as never });
    // Attached before the load-time replay (idle until start()): its opcode hooks also install the
    // jump-analysis cache, which the load benefits from.
    const recorder = new Recorder(vm);
    const genesisBlock = buildGenesis(spec, common, genesisRoot);
    const decoded = spec.traceTest !== undefined ? [buildTraceTestBlock(spec, common, genesisBlock)] : decodeBlocks(spec, common);
    blocks.set(genesisBlock.header.number, genesisBlock);
    const ordered: StoredBlock[] = [{ number: genesisBlock.header.number, hash: genesisBlock.hash(), block: genesisBlock, stateRoot: genesisRoot, receipts: [] }];
    const snapshot = cache?.snapshot;
    if (snapshot !== undefined) {
      restoreSnapshot(spec, stateManager, snapshot, decoded, genesisRoot, ordered, blocks, progress);
      const head = ordered[ordered.length - 1]!;
      await checkExpectedEnd(spec, common, head.hash, head.stateRoot);
      return new FixtureChain(spec, vm, recorder, common.chainId(), ordered, stateManager);
    }
    let root = genesisRoot;
    let txs = 0;
    for (const [i, block] of decoded.entries()) {
      const parent = ordered[ordered.length - 1]!;
      if (spec.traceTest === undefined && !equalsBytes(block.header.parentHash, parent.hash)) {
        throw new FixtureError(`${spec.path}: block ${block.header.number} (${bytesToHex(block.hash())}) does not follow block ${parent.number} (parentHash ${bytesToHex(block.header.parentHash)}, want ${bytesToHex(parent.hash)})`);
      }
      blocks.set(block.header.number, block);
      let result: RunBlockResult;
      try {
        result = await runBlock(vm, runOptions(block, i === 0 ? root : undefined));
        if (kzgMissed()) {
          await preloadKzg();
          result = await runBlock(vm, runOptions(block, root));
        }
      } catch (error) {
        throw new FixtureError(`${spec.path}: block ${block.header.number} (${bytesToHex(block.hash())}) does not replay: ${(error as Error).message}`);
      }
      if (spec.traceTest === undefined) checkHeader(spec, i, block, result);
      root = result.stateRoot;
      txs += block.transactions.length;
      ordered.push({ number: block.header.number, hash: block.hash(), block, stateRoot: root, receipts: receiptInfos(block, result) });
      progress?.(i + 1, decoded.length, txs, block.header.number);
    }
    const head = ordered[ordered.length - 1]!;
    await checkExpectedEnd(spec, common, head.hash, head.stateRoot);
    cache?.save?.({ roots: ordered.map((b) => b.stateRoot), receipts: ordered.slice(1).map((b) => b.receipts), nodes: new Map(stateDatabase(stateManager)) });
    return new FixtureChain(spec, vm, recorder, common.chainId(), ordered, stateManager);
  }
}

/** The state manager's backing store (MapDB of the trie's CheckpointDB): every trie node and code. */
function stateDatabase(stateManager: MerkleStateManager): Map<string, string | Uint8Array> {
  const trie = (stateManager as unknown as { _trie: { database(): { db: { _database: Map<string, string | Uint8Array> } } } })._trie;
  return trie.database().db._database;
}

/**
 * A snapshot in place of the replay: its nodes into the state database, its roots and receipts as
 * the blocks' own, each checked against the block's header (state root, logs bloom, gas used) as
 * the replay checks them; the head's root must be in the database.
 */
function restoreSnapshot(
  spec: ChainSpec,
  stateManager: MerkleStateManager,
  snapshot: Snapshot,
  decoded: readonly Block[],
  genesisRoot: Uint8Array,
  ordered: StoredBlock[],
  blocks: Map<bigint, Block>,
  progress: LoadProgress | undefined,
): void {
  if (snapshot.roots.length !== decoded.length + 1 || snapshot.receipts.length !== decoded.length) throw new SnapshotMismatch('another number of blocks');
  if (!equalsBytes(snapshot.roots[0]!, genesisRoot)) throw new SnapshotMismatch('another genesis state');
  const db = stateDatabase(stateManager);
  for (const [key, value] of snapshot.nodes) db.set(key, value);
  let txs = 0;
  for (const [i, block] of decoded.entries()) {
    const parent = ordered[ordered.length - 1]!;
    if (spec.traceTest === undefined && !equalsBytes(block.header.parentHash, parent.hash)) throw new SnapshotMismatch(`block ${block.header.number} does not follow its parent`);
    blocks.set(block.header.number, block);
    const root = snapshot.roots[i + 1]!;
    const receipts = snapshot.receipts[i]!;
    if (receipts.length !== block.transactions.length) throw new SnapshotMismatch(`block ${block.header.number}: another number of receipts`);
    if (spec.traceTest === undefined) {
      const h = block.header;
      const expectedRoot = spec.stateRootOverrides.get(i) ?? h.stateRoot;
      if (spec.partial === undefined && !equalsBytes(expectedRoot, root)) throw new SnapshotMismatch(`block ${h.number}: stateRoot differs from the header's`);
      const bloom = new Uint8Array(256);
      for (const r of receipts) for (let b = 0; b < 256; b++) bloom[b]! |= r.logsBloom[b]!;
      if (!equalsBytes(bloom, h.logsBloom)) throw new SnapshotMismatch(`block ${h.number}: logsBloom differs from the header's`);
      const gasUsed = receipts.length === 0 ? 0n : receipts[receipts.length - 1]!.cumulativeGasUsed;
      if (gasUsed !== h.gasUsed) throw new SnapshotMismatch(`block ${h.number}: gasUsed differs from the header's`);
    }
    txs += block.transactions.length;
    ordered.push({ number: block.header.number, hash: block.hash(), block, stateRoot: root, receipts });
    progress?.(i + 1, decoded.length, txs, block.header.number);
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

function decodeBlocks(spec: ChainSpec, common: Common): Block[] {
  return spec.blocks.map((entry, i) => {
    // With recorded senders the block stays unfrozen, so each transaction can be given its sender.
    const senders = spec.senders?.get(i);
    const opts = { common, setHardfork: true, skipConsensusFormatValidation: true, freeze: senders === undefined };
    let block: Block;
    try {
      block = entry instanceof Uint8Array ? createBlockFromRLP(entry, opts) : createBlockFromRPC(entry as never, [], opts);
    } catch (error) {
      throw new FixtureError(`${spec.path}: block ${i + 1} cannot be decoded (${(error as Error).message})`);
    }
    if (senders !== undefined && senders.length === block.transactions.length) useRecordedSenders(block, senders);
    return block;
  });
}

/**
 * Signature recovery (pure-JS secp256k1) is the largest single cost of a load. A fixture that records
 * each transaction's sender spares it; the load's state-root check proves the senders, since a
 * wrong one debits another account and bumps another nonce.
 */
function useRecordedSenders(block: Block, senders: readonly string[]): void {
  block.transactions.forEach((tx, j) => {
    const sender = createAddressFromString(senders[j]!.toLowerCase());
    Object.defineProperty(tx, 'getSenderAddress', { value: () => sender });
  });
}

function buildGenesis(spec: ChainSpec, common: Common, stateRoot: Uint8Array): Block {
  if (spec.genesisHeaderRlp !== undefined) {
    const header = createBlockHeaderFromRLP(spec.genesisHeaderRlp, { common, setHardfork: true, skipConsensusFormatValidation: true });
    return createBlock({ header }, { common, setHardfork: true, skipConsensusFormatValidation: true });
  }
  const g = spec.genesis;
  const traceTest = spec.traceTest;
  const number = traceTest !== undefined ? traceTest.context.number - 1n : 0n;
  const header = createBlockHeader(
    {
      number,
      stateRoot,
      gasLimit: quantity(g['gasLimit']),
      timestamp: quantity(g['timestamp']),
      extraData: hexOr(g['extraData'], '0x'),
      difficulty: quantity(g['difficulty']),
      mixHash: hexOr(g['mixHash'], '0x' + '00'.repeat(32)),
      nonce: hexOr(g['nonce'], '0x0000000000000000', 8),
      coinbase: hexOr(g['coinbase'], '0x' + '00'.repeat(20)),
      ...(g['baseFeePerGas'] !== undefined && g['baseFeePerGas'] !== null ? { baseFeePerGas: quantity(g['baseFeePerGas']) } : {}),
      ...(g['excessBlobGas'] !== undefined && g['excessBlobGas'] !== null ? { excessBlobGas: quantity(g['excessBlobGas']) } : {}),
      ...(g['blobGasUsed'] !== undefined && g['blobGasUsed'] !== null ? { blobGasUsed: quantity(g['blobGasUsed']) } : {}),
    },
    { common, setHardfork: true, skipConsensusFormatValidation: true },
  );
  const atGenesis = common.copy();
  atGenesis.setHardforkBy({ blockNumber: number, timestamp: quantity(g['timestamp']) });
  const withdrawals = atGenesis.isActivatedEIP(4895) ? [] : undefined;
  return createBlock({ header, ...(withdrawals ? { withdrawals } : {}) }, { common, setHardfork: true, skipConsensusFormatValidation: true });
}

/** A go-ethereum tracer test: one block at context.number holding the test transaction. */
function buildTraceTestBlock(spec: ChainSpec, common: Common, parent: Block): Block {
  const { context, rawTx } = spec.traceTest!;
  const c = common.copy();
  c.setHardforkBy({ blockNumber: context.number, timestamp: context.timestamp });
  let tx;
  try {
    tx = createTxFromRLP(rawTx, { common: c });
  } catch (error) {
    throw new FixtureError(`${spec.path}: "input" is not a valid transaction (${(error as Error).message})`);
  }
  const londonActive = c.isActivatedEIP(1559);
  const header = createBlockHeader(
    {
      number: context.number,
      parentHash: parent.hash(),
      timestamp: context.timestamp,
      gasLimit: context.gasLimit,
      difficulty: c.consensusType() === ConsensusType.ProofOfWork ? context.difficulty : 0n,
      coinbase: context.coinbase as `0x${string}`,
      mixHash: context.mixHash as `0x${string}`,
      ...(londonActive ? { baseFeePerGas: context.baseFeePerGas ?? 0n } : {}),
      ...(c.isActivatedEIP(4844) ? { excessBlobGas: 0n, blobGasUsed: 0n } : {}),
    },
    { common: c, setHardfork: true, skipConsensusFormatValidation: true },
  );
  return createBlock({ header, transactions: [tx], ...(c.isActivatedEIP(4895) ? { withdrawals: [] } : {}) }, { common: c, setHardfork: true, skipConsensusFormatValidation: true });
}

function quantity(v: unknown): bigint {
  if (typeof v === 'number') return BigInt(v);
  if (typeof v === 'string' && v !== '' && v !== '0x') return BigInt(v);
  return 0n;
}

function hexOr(v: unknown, fallback: string, padTo?: number): `0x${string}` {
  if (typeof v !== 'string' || !v.startsWith('0x')) return fallback as `0x${string}`;
  if (padTo !== undefined) return `0x${v.slice(2).padStart(padTo * 2, '0')}`;
  return v as `0x${string}`;
}

