// Upstream mode's source of subscription events: while some connection holds a subscription, the
// node is asked for its block number every POLL_MS; each new block is published to newHeads
// subscribers as go-ethereum's header notification (core/types/gen_header_json.go: field order,
// hash last) and its logs, as the node's eth_getLogs gives them, to matching logs subscribers.
import { hexBytes } from '../encoding/hex.ts';
import type { RpcContext } from '../rpc/context.ts';
import type { FilterCriteria } from '../rpc/filterParams.ts';
import { notification, type RpcSession } from '../rpc/subscriptions.ts';

const POLL_MS = 500;

/** types.Header's JSON fields in go-ethereum's order. */
const HEADER_FIELDS = [
  'parentHash', 'sha3Uncles', 'miner', 'stateRoot', 'transactionsRoot', 'receiptsRoot', 'logsBloom', 'difficulty', 'number',
  'gasLimit', 'gasUsed', 'timestamp', 'extraData', 'mixHash', 'nonce', 'baseFeePerGas', 'withdrawalsRoot', 'blobGasUsed',
  'excessBlobGas', 'parentBeaconBlockRoot', 'requestsHash', 'hash',
];

export function headerNotification(block: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of HEADER_FIELDS) if (block[field] !== undefined && block[field] !== null) out[field] = block[field];
  return out;
}

function logFilter(criteria: FilterCriteria | undefined, n: string): Record<string, unknown> {
  return {
    fromBlock: n,
    toBlock: n,
    ...(criteria !== undefined && criteria.addresses.length > 0 ? { address: criteria.addresses.map(hexBytes) } : {}),
    ...(criteria !== undefined && criteria.topics.length > 0 ? { topics: criteria.topics.map((set) => (set.length === 0 ? null : set.map(hexBytes))) } : {}),
  };
}

export class HeadsPoller {
  private timer: ReturnType<typeof setInterval> | undefined;
  private last: bigint | undefined;
  private busy = false;

  constructor(
    private readonly ctx: RpcContext,
    private readonly sessions: ReadonlySet<RpcSession>,
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    // the head is known from the start, so a block mined right after a subscription is published
    void this.tick();
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    (this.timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async ask<T>(method: string, params: unknown[]): Promise<T> {
    const text = await this.ctx.forward!.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), method);
    const answer = JSON.parse(text) as { result?: T; error?: { message: string } };
    if (answer.error !== undefined) throw new Error(answer.error.message);
    return answer.result as T;
  }

  private async tick(): Promise<void> {
    if (this.busy || this.sessions.size === 0) return;
    this.busy = true;
    try {
      const head = BigInt(await this.ask<string>('eth_blockNumber', []));
      if (this.last === undefined) this.last = head;
      for (let n = this.last + 1n; n <= head; n++) await this.publish(`0x${n.toString(16)}`);
      this.last = head;
    } catch (err) {
      this.ctx.log(`blocktrace: subscriptions: upstream poll failed: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }

  private async publish(n: string): Promise<void> {
    const block = await this.ask<Record<string, unknown> | null>('eth_getBlockByNumber', [n, false]);
    if (block === null) return;
    const header = JSON.stringify(headerNotification(block));
    for (const session of this.sessions) {
      for (const sub of session.subscriptions.values()) {
        if (sub.kind === 'newHeads') session.notify(notification(sub.id, header));
        if (sub.kind === 'logs') {
          const logs = await this.ask<unknown[]>('eth_getLogs', [logFilter(sub.criteria, n)]);
          for (const log of logs) session.notify(notification(sub.id, JSON.stringify(log)));
        }
      }
    }
  }
}
