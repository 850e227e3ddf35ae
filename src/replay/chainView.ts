// The one interface the RPC layer sees of a loaded chain. Implemented by replay/chain.ts
// (fixture chains) and upstream/upstreamChain.ts (blocks and state from a live node); handlers
// never touch ethereumjs state themselves.
import type { Block, BlockHeader } from '@ethereumjs/block';
import type { ChainIndex } from '../chainIndex/chainIndex.ts';
import type { LogTable } from '../chainIndex/logTable.ts';
import type { BlockRecording, StepSink, TxRecording } from '../trace/types.ts';
import type { CallOutcome, CallOverrides, CallWatch } from './callExec.ts';
import type { CallRequest } from './message.ts';
import type { TracedCalls } from './callTrace.ts';
import type { SimBlockResult, SimRequest } from './simulate/types.ts';

export interface ChainBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  /** Its header, known without decoding the rest of the block (a chain restored from a snapshot). */
  readonly header: BlockHeader;
  /** The decoded block (header, transactions, uncles, withdrawals). */
  readonly block: Block;
  /** Known without decoding the block or making its header (a block of a fixture chain). */
  readonly txHashes?: readonly Uint8Array[];
  readonly timestamp?: bigint;
}

/** A decoded block as a ChainBlock (its own hash unless given). */
export function chainBlockOf(block: Block, hash: Uint8Array = block.hash()): ChainBlock {
  return { number: block.header.number, hash, header: block.header, block };
}

/** `block`'s receipts without keeping them, where the chain can (ChainView.receiptsOnce); else as it keeps them. */
export function receiptsOnce(chain: ChainView, block: ChainBlock): readonly ReceiptInfo[] {
  return chain.receiptsOnce?.(block) ?? chain.receipts(block);
}

export interface TxLocation {
  readonly block: ChainBlock;
  readonly index: number;
}

/** Per-transaction receipt facts, as produced by the load-time replay. */
export interface ReceiptInfo {
  readonly status: 0 | 1 | undefined; // undefined before Byzantium (post-state root receipts)
  /** Before Byzantium: the state root after the transaction, in place of `status`. */
  readonly postState?: Uint8Array | undefined;
  readonly gasUsed: bigint;
  readonly cumulativeGasUsed: bigint;
  readonly logsBloom: Uint8Array;
  readonly logs: readonly { address: Uint8Array; topics: Uint8Array[]; data: Uint8Array }[];
  readonly contractAddress: Uint8Array | undefined;
  readonly effectiveGasPrice: bigint;
  readonly blobGasUsed: bigint | undefined;
  readonly blobGasPrice: bigint | undefined;
  readonly from: Uint8Array;
  /** Index of the first log of this tx within the block. */
  readonly firstLogIndex: number;
}

/** Block tags a request may name (rpc/schemas.ts BlockTag). */
export type ChainTag = 'earliest' | 'latest' | 'pending' | 'finalized' | 'safe';

/** Lookups that need I/O: a chain whose blocks come from a live node answers them asynchronously. */
export interface BlockFetcher {
  byNumber(n: bigint): Promise<ChainBlock | undefined>;
  byTag(tag: ChainTag): Promise<ChainBlock | undefined>;
  byHash(hash: Uint8Array): Promise<ChainBlock | undefined>;
  tx(hash: Uint8Array): Promise<TxLocation | undefined>;
}

/** The state after one block. */
export interface StateReader {
  balance(address: Uint8Array): Promise<bigint>;
  nonce(address: Uint8Array): Promise<bigint>;
  code(address: Uint8Array): Promise<Uint8Array>;
  /** The slot's value, 32 bytes. */
  storage(address: Uint8Array, slot: Uint8Array): Promise<Uint8Array>;
  /** EIP-1186 Merkle proofs of an account and some of its slots against this state's root. */
  proof(address: Uint8Array, slots: readonly Uint8Array[]): Promise<AccountProof>;
  /** The state root read (go-ethereum's dumps name it). */
  readonly root?: Uint8Array;
  /** The account trie's leaves in hashed-address order, from the first at or after `start`. */
  accounts?(start: Uint8Array): AsyncIterable<TrieAccount>;
  /** The account at `address`, as the trie holds it; undefined when absent. */
  account?(address: Uint8Array): Promise<TrieAccount | undefined>;
  /** The slots of the storage trie at `account`'s root in hashed-key order, from `start` (a key prefix). */
  storageSlots?(account: TrieAccount, start: Uint8Array): AsyncIterable<StorageSlot>;
  /** Code by its hash (empty for the empty code hash). */
  codeByHash?(codeHash: Uint8Array): Promise<Uint8Array>;
}

/** An account as its trie leaf holds it, with the hash of its address (the leaf's key). */
export interface TrieAccount {
  readonly hash: Uint8Array;
  readonly nonce: bigint;
  readonly balance: bigint;
  readonly storageRoot: Uint8Array;
  readonly codeHash: Uint8Array;
}

/** One storage slot: the hash of its key and its value (RLP decoded, unpadded). */
export interface StorageSlot {
  readonly hash: Uint8Array;
  readonly value: Uint8Array;
}

/**
 * The keys the chain can name behind their hashes (go-ethereum's preimage store, which an archive
 * node keeps): addresses and storage slots, looked up by their keccak hash.
 */
export interface Preimages {
  address(hash: Uint8Array): Uint8Array | undefined;
  slot(hash: Uint8Array): Uint8Array | undefined;
}

export interface AccountProof {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly codeHash: Uint8Array;
  readonly storageHash: Uint8Array;
  /** Trie nodes from the state root to the account (or to where its absence shows). */
  readonly accountProof: readonly Uint8Array[];
  readonly storageProof: readonly { readonly value: bigint; readonly proof: readonly Uint8Array[] }[];
}

export interface RecordOptions {
  /** Record the state the transactions touch (TxRecording.state); empty otherwise. */
  readonly state?: boolean;
  /**
   * Hand the opcode steps of the transactions the sink watches to it as they run (the struct logger,
   * erc7562Tracer): the block is run again for the request, and the recording is not kept.
   */
  readonly steps?: StepSink;
}

export interface ChainView {
  readonly chainId: bigint;
  /** Human label for logs: fixture path and format. */
  readonly label: string;
  /** Transactions of every block held (a chain whose blocks are fetched on demand has none to count). */
  readonly transactionCount?: number | undefined;
  readonly genesis: ChainBlock;
  readonly head: ChainBlock;
  /** The chain's go-ethereum chain config (genesis.json `config`, as given), where known (eth_config). */
  readonly forkConfig?: Readonly<Record<string, unknown>> | undefined;
  /** What the fork schedule rests on where it is not the fixture's own (upstream mode: a file, the node's report, what its answers show), for the log. */
  readonly forkNote?: string | undefined;
  /** `finalized` and `safe` tags: the head unless the fixture names them. */
  readonly finalized: ChainBlock;
  readonly safe: ChainBlock;
  blockByNumber(n: bigint): ChainBlock | undefined;
  blockByHash(hash: Uint8Array): ChainBlock | undefined;
  txByHash(hash: Uint8Array): TxLocation | undefined;
  receipts(block: ChainBlock): readonly ReceiptInfo[];
  /** The block's receipts without keeping them where they were not kept already (a read over a whole chain); else as `receipts`. */
  readonly receiptsOnce?: (block: ChainBlock) => readonly ReceiptInfo[];
  /**
   * Transactions by the addresses they touched, contract creators, senders' nonces (the Otterscan
   * API's searches), made at load; unset where blocks are fetched on demand (upstream mode).
   */
  readonly chainIndex?: ChainIndex | undefined;
  /**
   * Every log's address, topics and place (eth_getLogs), made at load; unset where blocks are
   * fetched on demand (the RPC layer then makes it from the receipts when first asked).
   */
  readonly logTable?: LogTable | undefined;
  /**
   * Set when blocks are fetched on demand (upstream mode): handlers resolve blocks and transactions
   * through it, and the synchronous lookups above only know the blocks fetched so far.
   */
  readonly fetch?: BlockFetcher | undefined;
  /**
   * The block's recording: without `state`, the one the load kept where the chain has one (a fixture
   * chain), else the block re-executed from its parent's state root with the recorder attached
   * (cached). The accounts and slots touched (StateLog) are recorded only with `state`, for the
   * tracers that need them (prestateTracer); a recording with state serves the others too.
   */
  recordBlock(block: ChainBlock, options?: RecordOptions): Promise<BlockRecording>;
  /**
   * The state after `block`, read from the trie at its root. Unset where state is not held here
   * (upstream mode forwards state reads to the node).
   */
  readonly stateAfter?: ((block: ChainBlock) => Promise<StateReader>) | undefined;
  /**
   * Runs one message on the state after `block` (eth_call), `watch` seeing the opcodes it names as
   * they are reached; unset where calls go to a node.
   */
  readonly call?: ((block: ChainBlock, request: CallRequest, overrides?: CallOverrides, watch?: CallWatch) => Promise<CallOutcome>) | undefined;
  /**
   * Runs calls as transactions on the state after `block` (each on top of the ones before), recorded
   * as a block replay is (debug_traceCall, trace_call, trace_callMany); unset where not held here.
   */
  readonly traceCalls?: ((block: ChainBlock, request: TracedCalls, options?: RecordOptions) => Promise<TxRecording[]>) | undefined;
  /**
   * The addresses and slots known by hash (debug_accountRange, debug_dumpBlock, debug_storageRangeAt,
   * debug_getModifiedAccounts*): made once, on first use; unset where state is not held here.
   */
  readonly preimages?: (() => Promise<Preimages>) | undefined;
  /** The state root after each transaction of `block` (debug_intermediateRoots); unset where not held here. */
  readonly intermediateRoots?: ((block: ChainBlock) => Promise<Uint8Array[]>) | undefined;
  /** A block from its RLP with this chain's rules (debug_traceBlock); throws what the decoder says. */
  readonly blockFromRlp?: ((rlp: Uint8Array) => ChainBlock) | undefined;
  /** eth_simulateV1: simulated blocks on top of `block` (nothing of them stays); unset where not held here. */
  readonly simulate?: ((block: ChainBlock, request: SimRequest) => Promise<SimBlockResult[]>) | undefined;
}

/** The transaction's place: asked of the chain's fetcher where blocks are fetched on demand (upstream mode). */
export async function fetchTx(chain: ChainView, hash: Uint8Array): Promise<TxLocation | undefined> {
  return chain.fetch !== undefined ? chain.fetch.tx(hash) : chain.txByHash(hash);
}

/**
 * The chain's first block: block 0, or the state snapshot a captured fixture starts from. It has no
 * parent state to replay from (go-ethereum: "genesis is not traceable").
 */
export function isGenesis(chain: ChainView, block: ChainBlock): boolean {
  return block.number === 0n || block.number === chain.genesis.number;
}
