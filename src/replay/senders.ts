// Sender recovery beside the replay. A chain.rlp (or any fixture without recorded senders) makes
// every transaction recover its sender's key from its signature (pure-JS secp256k1 in ethereumjs,
// about half a millisecond each: the largest single cost of a load), and hash its signed message,
// its address and itself. A worker (senderWorker.ts, with libsecp256k1: secp256k1.ts) does all four
// from the transactions' bytes as the blocks hold them, in chain order, while the EVM runs, and
// leaves each result in shared memory. Each transaction asks for its own when ethereumjs first
// wants its sender (getSenderAddress, getSenderPublicKey) or hash: a result there is used; one the
// worker has not reached yet is claimed and recovered on the spot (the worker skips it); and while
// the worker is on the one asked for, the replay recovers the next ones instead of waiting. So the
// two threads share the work whichever is ahead. The results go where ethereumjs keeps them
// (tx.cache: tx/src/capabilities/legacy.ts), the address (which ethereumjs does not keep) beside
// them. A signature ethereumjs would refuse (high s after Homestead, a bad v) is left to
// ethereumjs, which refuses it with its own message. A transaction the fixture gives its sender
// and hash (sentAs.ts: an impersonated one) keeps them; its result, if any, goes unused.
import type { Block } from '@ethereumjs/block';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util';
import { hasGivenSender } from './sentAs.ts';

/** To the worker: every block's transactions (as the block's RLP, or each one's bytes) and the shared memory. */
export interface SenderJob {
  readonly state: SharedArrayBuffer;
  readonly results: SharedArrayBuffer;
  readonly blocks: readonly { readonly count: number; readonly rlp?: Uint8Array; readonly txs?: readonly Uint8Array[] }[];
}

/** A transaction's state word: not taken yet, being computed by the worker, computed, taken by the replay. */
export const FREE = 0;
export const WORKING = 1;
export const DONE = 2;
export const TAKEN = 3;
/** A result: flags, public key (64), address (20), hash (32), at these offsets. */
export const RESULT_BYTES = 117;
export const KEY_AT = 1;
export const ADDRESS_AT = 65;
export const HASH_AT = 85;
export const HAS_HASH = 1;
export const HAS_KEY = 2;
/** The worker's one message: every transaction of its job is computed or taken. */
export const WORKER_DONE = 'done';

/** Below this many signatures a worker's start-up costs more than it saves. */
const MIN_SIGNATURES = 400;
/** Transactions given to one worker (their shared results take 117 bytes each); later ones recover on the spot. */
const MAX_TRANSACTIONS = 1 << 20;
/** How long the replay waits for the transaction the worker is on before doing it itself. */
const PATIENCE_MS = 1000;

/** The worker of this runtime: Bun from source or compiled; elsewhere (the Deno/Node bundle) none. */
function startWorker(): Worker | undefined {
  if (typeof Bun === 'undefined' || typeof Worker === 'undefined' || typeof SharedArrayBuffer === 'undefined') return undefined;
  try {
    // a compiled binary holds the worker as its second entry point (build.ts)
    const compiled = Bun.main.startsWith('/$bunfs/');
    return new Worker(compiled ? './replay/senderWorker.ts' : new URL('./senderWorker.ts', import.meta.url).href);
  } catch {
    return undefined;
  }
}

/** Whether ethereumjs would try to recover this signature at all (legacy.ts getSenderPublicKey). */
function recoverable(tx: TypedTransaction): boolean {
  if (tx.v === undefined || tx.r === undefined || tx.s === undefined) return false;
  // EIP-2: ethereumjs refuses a high s itself (validateHighS)
  return !(tx.common.gteHardfork('homestead') && tx.s > SECP256K1_ORDER_DIV_2);
}

interface TxMethods {
  getSenderAddress(this: TypedTransaction): Address;
  getSenderPublicKey(this: TypedTransaction): Uint8Array;
  hash(this: TypedTransaction): Uint8Array;
}

export class SenderPool {
  private readonly state: Int32Array;
  private readonly results: Uint8Array;
  /** The transactions by index, with their methods as ethereumjs defines them, and each sender once known. */
  private readonly txs: ({ readonly tx: TypedTransaction; readonly own: TxMethods; readonly given: boolean } | undefined)[] = [];
  private readonly senders: (Address | undefined)[] = [];
  /** Where each block's transactions start in the worker's order (blocks past MAX_TRANSACTIONS have none). */
  private readonly starts: number[] = [];
  private stopped = false;
  private ending: () => void = () => {};
  /** Resolved when the worker has ended: once it is done (it says so) or the pool was stopped. */
  readonly ended = new Promise<void>((resolve) => {
    this.ending = resolve;
  });

  private constructor(
    private readonly worker: Worker,
    count: number,
  ) {
    this.state = new Int32Array(new SharedArrayBuffer(4 * count));
    this.results = new Uint8Array(new SharedArrayBuffer(RESULT_BYTES * count));
    // a worker that cannot start or dies leaves every transaction to the replay
    worker.onerror = () => this.stop();
    // done, perhaps long before the replay: its results are in the shared memory, and its heap
    // (large on a long chain) goes now instead of at the load's peak, its end
    worker.onmessage = (event: MessageEvent<unknown>) => {
      if (event.data === WORKER_DONE) this.stop();
    };
  }

  /**
   * A worker for the transactions of `blocks` (decoded unfrozen: each transaction is given its own
   * getSenderAddress, getSenderPublicKey and hash here; the caller then seals the blocks), `rlp`
   * giving block i's RLP where the fixture has it; undefined when it would not pay.
   */
  static start(blocks: readonly Block[], rlp: (i: number) => Uint8Array | undefined): SenderPool | undefined {
    const pool = SenderPool.ahead(
      blocks.map((block) => block.transactions.length),
      (i) => rlp(i) ?? blocks[i]!.transactions.map((tx) => tx.serialize()),
    );
    blocks.forEach((block, i) => pool?.adopt(i, block));
    return pool;
  }

  /**
   * A worker for blocks not decoded yet: `counts` of transactions per block, `bytes` each block's
   * RLP (or its transactions' bytes). Each block's transactions join when it is decoded (adopt), and
   * leave when it has run (release), so a load holds one decoded block at a time.
   */
  static ahead(counts: readonly number[], bytes: (i: number) => Uint8Array | readonly Uint8Array[]): SenderPool | undefined {
    const count = counts.reduce((a, b) => a + b, 0);
    if (count < MIN_SIGNATURES) return undefined;
    const worker = startWorker();
    if (worker === undefined) return undefined;
    const pool = new SenderPool(worker, Math.min(count, MAX_TRANSACTIONS));
    const job: SenderJob['blocks'][number][] = [];
    let index = 0;
    for (const [i, n] of counts.entries()) {
      if (index + n > MAX_TRANSACTIONS) break;
      pool.starts.push(index);
      index += n;
      const given = bytes(i);
      // slice: a view into the fixture's buffer would carry the whole buffer to the worker
      job.push(given instanceof Uint8Array ? { count: n, rlp: given.slice() } : { count: n, txs: given });
    }
    worker.postMessage({ state: pool.state.buffer as SharedArrayBuffer, results: pool.results.buffer as SharedArrayBuffer, blocks: job } satisfies SenderJob);
    return pool;
  }

  /** Block `i`, just decoded (unfrozen): its transactions take their results from the worker. */
  adopt(i: number, block: Block): void {
    let index = this.starts[i];
    if (index === undefined) return;
    for (const tx of block.transactions) this.attach(tx, index++);
  }

  /** Block `i` has run: the pool lets its transactions go (they keep what they took). */
  release(i: number, count: number): void {
    const start = this.starts[i];
    if (start === undefined) return;
    for (let index = start; index < start + count; index++) {
      this.txs[index] = undefined;
      this.senders[index] = undefined;
    }
  }

  /** How many transactions the worker has computed, how many were taken by the replay, how many are left. */
  counts(): { readonly done: number; readonly taken: number; readonly left: number } {
    let done = 0;
    let taken = 0;
    for (let i = 0; i < this.state.length; i++) {
      const state = Atomics.load(this.state, i);
      if (state === DONE) done++;
      else if (state === TAKEN) taken++;
    }
    return { done, taken, left: this.state.length - done - taken };
  }

  /** Ends the worker; what it computed stays readable, and what it did not is done on the spot. */
  stop(): void {
    this.stopped = true;
    this.worker.terminate();
    this.ending();
  }

  private attach(tx: TypedTransaction, index: number): void {
    const own = Object.getPrototypeOf(tx) as TxMethods;
    const given = hasGivenSender(tx);
    this.txs[index] = { tx, own, given };
    if (given) return;
    Object.defineProperty(tx, 'getSenderAddress', { value: () => (this.senders[index] ??= this.sender(tx, index, own)) });
    Object.defineProperty(tx, 'getSenderPublicKey', { value: () => this.key(tx, index, own) });
    Object.defineProperty(tx, 'hash', {
      value: () => {
        if (tx.cache.hash !== undefined) return tx.cache.hash;
        const at = index * RESULT_BYTES;
        if (Atomics.load(this.state, index) === DONE && this.results[at]! & HAS_HASH) return (tx.cache.hash = this.results.slice(at + HASH_AT, at + HASH_AT + 32));
        return own.hash.call(tx);
      },
    });
  }

  /** The sender: the worker's, or ethereumjs's own (which asks key() for the public key). */
  private sender(tx: TypedTransaction, index: number, own: TxMethods): Address {
    if (this.workerKey(tx, index) === undefined) return own.getSenderAddress.call(tx);
    const at = index * RESULT_BYTES + ADDRESS_AT;
    return new Address(this.results.slice(at, at + 20));
  }

  /** The public key: cached, the worker's, or recovered by ethereumjs here (which caches it; a frozen transaction). */
  private key(tx: TypedTransaction, index: number, own: TxMethods): Uint8Array {
    return tx.cache.senderPubKey ?? this.workerKey(tx, index) ?? own.getSenderPublicKey.call(tx); // ethereumjs recovers it, or refuses it with its message
  }

  /** The key the worker recovered, put in the transaction's cache; undefined where it has none to give (or ethereumjs would refuse the signature). */
  private workerKey(tx: TypedTransaction, index: number): Uint8Array | undefined {
    if (!recoverable(tx) || !this.computed(index)) return undefined;
    const at = index * RESULT_BYTES;
    if (!(this.results[at]! & HAS_KEY)) return undefined;
    return (tx.cache.senderPubKey ??= this.results.slice(at + KEY_AT, at + KEY_AT + 64));
  }

  /**
   * Whether the worker has computed transaction `index`: one it has not reached is claimed for
   * this thread (false; the worker skips it). While the worker is on it, this thread recovers the
   * next transactions the worker has not reached instead of waiting (otherwise, once the replay
   * catches up with the worker, it would wait on every transaction the worker is on).
   */
  private computed(index: number): boolean {
    let state = Atomics.load(this.state, index);
    if (state === FREE && Atomics.compareExchange(this.state, index, FREE, TAKEN) === FREE) return false;
    let next = index + 1;
    for (const until = performance.now() + PATIENCE_MS; state === WORKING && !this.stopped && performance.now() < until; state = Atomics.load(this.state, index)) {
      while (next < this.txs.length && Atomics.load(this.state, next) !== FREE) next++;
      if (next < this.txs.length) this.steal(next++);
      else Atomics.wait(this.state, index, WORKING, 5);
    }
    return state === DONE;
  }

  /** Recovers transaction `index` here ahead of its turn, if the worker has not taken it meanwhile and its block is decoded. */
  private steal(index: number): void {
    const entry = this.txs[index];
    if (entry === undefined || Atomics.compareExchange(this.state, index, FREE, TAKEN) !== FREE) return;
    const { tx, own, given } = entry;
    if (given || !recoverable(tx)) return; // given its sender, or ethereumjs refuses it when its turn comes
    try {
      this.senders[index] = own.getSenderAddress.call(tx);
    } catch {
      // left for its turn, where ethereumjs throws again
    }
  }
}
