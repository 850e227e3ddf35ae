// Upstream mode's chain as a server sees it: the node's chain as it is now. `follow()` (serve calls it
// every second) asks the node for its block number; a head that moved is fetched, so the head that
// /health and the summary name is the node's. A head that went back, or an old head another block
// replaced on a genesis of another hash, is a node restarted (or reset): the chain is connected
// again (its forks found again, a restarted devnet may run others) and every block, recording and
// state read of the old chain goes with the old UpstreamChain. A reorg above the same genesis keeps
// them: they are keyed by block hash, so none is served for a block it is not.
import { bytesToHex } from '@ethereumjs/util';
import { hexQuantity } from '../encoding/hex.ts';
import type { ChainBlock, ChainView } from '../replay/chainView.ts';
import type { UpstreamClient } from './client.ts';
import { UpstreamChain } from './upstreamChain.ts';

/** What a look at the node found worth a line of the log. */
export type FollowNews =
  | { readonly kind: 'restarted'; readonly head: bigint; readonly genesis: Uint8Array }
  | { readonly kind: 'unreachable'; readonly message: string };

/** The chain followed, as a ChainView: every member it has or may gain is passed on. */
type Upstream = ChainView & Pick<UpstreamChain, 'fetch' | 'forkNote'>;

export class FollowedChain implements ChainView {
  private busy = false;
  /** Whether the last look failed: an outage is reported once. */
  private down = false;

  private constructor(
    private readonly client: UpstreamClient,
    private readonly genesisFile: string | undefined,
    private current: Upstream,
  ) {}

  static async connect(client: UpstreamClient, genesisFile: string | undefined): Promise<FollowedChain> {
    return new FollowedChain(client, genesisFile, await UpstreamChain.connect(client, genesisFile));
  }

  // Every member is the current chain's, read when asked: a request keeps the chain it started on.
  get chainId() { return this.current.chainId; }
  get label() { return this.current.label; }
  get forkNote() { return this.current.forkNote; }
  get transactionCount() { return this.current.transactionCount; }
  get genesis() { return this.current.genesis; }
  get head() { return this.current.head; }
  get forkConfig() { return this.current.forkConfig; }
  get finalized() { return this.current.finalized; }
  get safe() { return this.current.safe; }
  get chainIndex() { return this.current.chainIndex; }
  get logTable() { return this.current.logTable; }
  get fetch() { return this.current.fetch; }
  get stateAfter() { return this.current.stateAfter; }
  get call() { return this.current.call; }
  get traceCalls() { return this.current.traceCalls; }
  get preimages() { return this.current.preimages; }
  get intermediateRoots() { return this.current.intermediateRoots; }
  get blockFromRlp() { return this.current.blockFromRlp; }
  get simulate() { return this.current.simulate; }
  blockByNumber(n: bigint) { return this.current.blockByNumber(n); }
  blockByHash(hash: Uint8Array) { return this.current.blockByHash(hash); }
  txByHash(hash: Uint8Array) { return this.current.txByHash(hash); }
  receipts(block: ChainBlock) { return this.current.receipts(block); }
  recordBlock(...args: Parameters<ChainView['recordBlock']>) { return this.current.recordBlock(...args); }

  /** One look at the node (a look still running makes this one a no-op); what it found worth a line. */
  async follow(): Promise<FollowNews | undefined> {
    if (this.busy) return undefined;
    this.busy = true;
    try {
      const news = await this.look();
      this.down = false;
      return news;
    } catch (err) {
      if (this.down) return undefined;
      this.down = true;
      return { kind: 'unreachable', message: err instanceof Error ? err.message : String(err) };
    } finally {
      this.busy = false;
    }
  }

  private async look(): Promise<FollowNews | undefined> {
    const chain = this.current;
    const number = BigInt(await this.client.call<string>('eth_blockNumber', []));
    const head = chain.head;
    if (number === head.number) return undefined;
    if (number > head.number && (await this.hashAt(head.number)) === bytesToHex(head.hash)) {
      await chain.fetch.byTag('latest');
      return undefined;
    }
    if (number > head.number && (await this.hashAt(0n)) === bytesToHex(chain.genesis.hash)) {
      await chain.fetch.byTag('latest'); // a reorg: what is kept is kept by hash
      return undefined;
    }
    this.current = await UpstreamChain.connect(this.client, this.genesisFile);
    return { kind: 'restarted', head: head.number, genesis: chain.genesis.hash };
  }

  private async hashAt(n: bigint): Promise<string | undefined> {
    const block = await this.client.call<{ hash: string } | null>('eth_getBlockByNumber', [hexQuantity(n), false]);
    return block?.hash.toLowerCase();
  }
}
