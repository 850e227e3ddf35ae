// Sender recovery beside the replay. A chain.rlp (or any fixture without recorded senders) makes
// every transaction recover its sender's key from its signature (pure-JS secp256k1, about half a
// millisecond each: the largest single cost of a load). Here a worker recovers the keys of the
// next blocks with ethereumjs's own ecrecover while the EVM runs the current block, and each key
// goes into the transaction's own sender cache, where ethereumjs's getSenderPublicKey looks first
// (tx/src/capabilities/legacy.ts). A signature ethereumjs would refuse (high s after Homestead, a
// bad v) gets no key, so the replay's own call refuses it with ethereumjs's message, as without
// the worker; so does a key the worker has not delivered yet.
import type { Block } from '@ethereumjs/block';
import { Capability, type TypedTransaction } from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, SECP256K1_ORDER_DIV_2 } from '@ethereumjs/util';

export interface SenderItem {
  readonly hash: Uint8Array;
  readonly v: bigint;
  readonly r: Uint8Array;
  readonly s: Uint8Array;
  readonly chainId: bigint | undefined;
}
/** To the worker: the signatures of one block. */
export interface SenderJob {
  readonly block: number;
  readonly items: readonly SenderItem[];
}
/** From the worker: their public keys, null where recovery failed. */
export interface SenderKeys {
  readonly block: number;
  readonly keys: readonly (Uint8Array | null)[];
}

/** Below this many signatures a worker's start-up costs more than it saves. */
const MIN_SIGNATURES = 400;
/** Blocks whose signatures are sent ahead of the one being run. */
const AHEAD = 4;
/** A block's keys not here this long after the replay asked: the worker is given up for the load. */
const PATIENCE_MS = 2000;

/** The worker of this runtime: Bun from source or compiled; elsewhere (the Deno/Node bundle) none. */
function startWorker(): Worker | undefined {
  if (typeof Bun === 'undefined' || typeof Worker === 'undefined') return undefined;
  try {
    // a compiled binary holds the worker as its second entry point (build.ts)
    const compiled = Bun.main.startsWith('/$bunfs/');
    return new Worker(compiled ? './replay/senderWorker.ts' : new URL('./senderWorker.ts', import.meta.url).href);
  } catch {
    return undefined;
  }
}

/** Whether ethereumjs would try to recover this signature at all (legacy.ts getSenderPublicKey). */
function recoverable(tx: TypedTransaction): tx is TypedTransaction & { v: bigint; r: bigint; s: bigint } {
  if (tx.v === undefined || tx.r === undefined || tx.s === undefined || tx.cache.senderPubKey !== undefined) return false;
  // EIP-2: ethereumjs refuses a high s itself (validateHighS)
  return !(tx.common.gteHardfork('homestead') && tx.s > SECP256K1_ORDER_DIV_2);
}

export class SenderPrefetch {
  private readonly jobs = new Map<number, readonly TypedTransaction[]>();
  private readonly arrived = new Map<number, () => void>();
  private readonly done = new Set<number>();
  private posted = 0;
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly blocks: readonly Block[],
  ) {
    worker.onmessage = (event: MessageEvent<SenderKeys>) => this.receive(event.data);
    // a worker that cannot start or dies leaves every key to the replay itself
    worker.onerror = () => this.fail();
  }

  /** A prefetch for `blocks` (frozen: ethereumjs caches a sender only there), or undefined when it would not pay. */
  static start(blocks: readonly Block[]): SenderPrefetch | undefined {
    let signatures = 0;
    for (const block of blocks) signatures += block.transactions.length;
    if (signatures < MIN_SIGNATURES) return undefined;
    const worker = startWorker();
    return worker === undefined ? undefined : new SenderPrefetch(worker, blocks);
  }

  /** Resolves once the keys of block `i` (an index into the blocks) are in place, or will not come. */
  ready(i: number): Promise<void> {
    while (!this.failed && this.posted < Math.min(this.blocks.length, i + 1 + AHEAD)) this.post(this.posted++);
    if (this.failed || this.done.has(i)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fail(), PATIENCE_MS);
      this.arrived.set(i, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  stop(): void {
    this.worker.terminate();
    this.fail();
  }

  private post(i: number): void {
    const txs = this.blocks[i]!.transactions.filter((tx) => Object.isFrozen(tx) && recoverable(tx));
    const items = txs.map((tx): SenderItem => {
      const { v, r, s } = tx as TypedTransaction & { v: bigint; r: bigint; s: bigint };
      const chainId = tx.supports(Capability.EIP155ReplayProtection) ? tx.common.chainId() : undefined;
      return { hash: tx.getMessageToVerifySignature(), v, r: bigIntToUnpaddedBytes(r), s: bigIntToUnpaddedBytes(s), chainId };
    });
    this.jobs.set(i, txs);
    this.worker.postMessage({ block: i, items } satisfies SenderJob);
  }

  private receive({ block, keys }: SenderKeys): void {
    const txs = this.jobs.get(block) ?? [];
    this.jobs.delete(block);
    keys.forEach((key, j) => {
      if (key !== null) txs[j]!.cache.senderPubKey = key;
    });
    this.done.add(block);
    this.arrived.get(block)?.();
    this.arrived.delete(block);
  }

  private fail(): void {
    this.failed = true;
    for (const resolve of this.arrived.values()) resolve();
    this.arrived.clear();
  }
}
