// The port opens before the fixture is replayed: until the chain is ready, GET /health says
// "loading" (503) with the blocks replayed so far, eth_blockNumber answers the replayed head, and
// every other request waits for the load, up to a deadline (then -32000 naming the progress).
import { goJson } from '../encoding/json.ts';
import type { RpcContext } from '../rpc/context.ts';

export interface LoadState {
  readonly status: 'loading' | 'ready' | 'failed';
  /** Blocks replayed so far (the genesis not counted) and of how many. */
  readonly replayed: number;
  readonly total: number;
  /** Number of the last block replayed (the genesis while none is). */
  readonly head: bigint;
}

export class LoadGate {
  private state: LoadState = { status: 'loading', replayed: 0, total: 0, head: 0n };
  private ctx: RpcContext | undefined;
  private readonly waiting = new Set<() => void>();

  get current(): LoadState {
    return this.state;
  }

  /** The context once ready; undefined while loading (or after a failed load). */
  get ready(): RpcContext | undefined {
    return this.ctx;
  }

  progress(replayed: number, total: number, head: bigint): void {
    this.state = { status: 'loading', replayed, total, head };
  }

  open(ctx: RpcContext): void {
    this.ctx = ctx;
    this.state = { ...this.state, status: 'ready', replayed: this.state.total, head: ctx.chain.head.number };
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  fail(): void {
    this.state = { ...this.state, status: 'failed' };
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  /** The context, once the load ends within `ms` (0: no deadline); undefined otherwise. */
  wait(ms: number): Promise<RpcContext | undefined> {
    if (this.ctx !== undefined || this.state.status === 'failed') return Promise.resolve(this.ctx);
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const wake = (): void => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve(this.ctx);
      };
      this.waiting.add(wake);
      if (ms > 0) timer = setTimeout(wake, ms);
    });
  }
}

/** GET /health: 200 when ready, 503 while loading, after a failed load, and while draining (a SIGTERM: the replica is going away). */
export function healthResponse(gate: LoadGate | undefined, ctx: RpcContext | undefined, draining = false): Response {
  const state: LoadState = gate?.current ?? { status: 'ready', replayed: 0, total: 0, head: ctx?.chain.head.number ?? 0n };
  const status = draining ? 'draining' : state.status;
  const body: Record<string, unknown> = { status, head: `0x${state.head.toString(16)}` };
  if (gate !== undefined) {
    body['replayed'] = state.replayed;
    body['total'] = state.total;
  }
  return new Response(`${goJson(body)}\n`, { status: status === 'ready' ? 200 : 503, headers: { 'content-type': 'application/json' } });
}

interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
}

/**
 * The answer to `text` while the chain is still loading, if it can be given now: eth_blockNumber
 * (the replayed head) and eth_chainId are; a body of anything else gets undefined (it waits).
 */
export function answerWhileLoading(text: string, state: LoadState, chainId: bigint | undefined): string | undefined {
  let message: Message;
  try {
    message = JSON.parse(text) as Message;
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const id = goJson(message.id ?? null);
  if (message.method === 'eth_blockNumber') return `{"jsonrpc":"2.0","id":${id},"result":"0x${state.head.toString(16)}"}`;
  if (message.method === 'eth_chainId' && chainId !== undefined) return `{"jsonrpc":"2.0","id":${id},"result":"0x${chainId.toString(16)}"}`;
  return undefined;
}

/** The answer to a request that waited past the deadline: -32000 with the load's progress, per message. */
export function stillLoading(text: string, state: LoadState): string {
  const error = goJson({ code: -32000, message: `blocktrace is still replaying the fixture (block ${state.replayed} of ${state.total}); GET /health says when it is ready` });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `{"jsonrpc":"2.0","id":null,"error":${error}}`;
  }
  const one = (m: unknown): string => `{"jsonrpc":"2.0","id":${goJson((m as Message | null)?.id ?? null)},"error":${error}}`;
  return Array.isArray(parsed) ? `[${parsed.map(one).join(',')}]` : one(parsed);
}
