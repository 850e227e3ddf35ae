// What the pages should show, asked of blocktrace over JSON-RPC with the standard methods (the
// answers the golden tests hold byte for byte against anvil), never with the ots_* answers the
// pages are checking.

interface RpcAnswer {
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

export async function rpc<T>(url: string, method: string, params: readonly unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await response.json()) as RpcAnswer;
  if (answer.error !== undefined) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result as T;
}

/** A transaction's place in the chain. */
export interface Position {
  readonly block: number;
  readonly index: number;
}

export const formatPosition = (p: Position): string => `${p.block}:${p.index}`;

/** Newest first: a later block first, and within a block the later transaction first. */
export const newerFirst = (a: Position, b: Position): number => b.block - a.block || b.index - a.index;

interface CallFrame {
  readonly type: string;
  readonly to?: string;
  readonly error?: string;
  readonly calls?: readonly CallFrame[];
}

export class Chain {
  private readonly positions = new Map<string, Position>();

  constructor(readonly url: string) {}

  async head(): Promise<number> {
    return Number(await rpc<string>(this.url, 'eth_blockNumber', []));
  }

  /** The hashes of a block's transactions, in block order. */
  async blockHashes(block: number): Promise<string[]> {
    const found = await rpc<{ transactions: string[] }>(this.url, 'eth_getBlockByNumber', [`0x${block.toString(16)}`, false]);
    return found.transactions;
  }

  async txHash(block: number, index: number): Promise<string> {
    return (await this.blockHashes(block))[index] ?? '';
  }

  async position(hash: string): Promise<Position> {
    const key = hash.toLowerCase();
    const known = this.positions.get(key);
    if (known !== undefined) return known;
    const tx = await rpc<{ blockNumber: string; transactionIndex: string }>(this.url, 'eth_getTransactionByHash', [hash]);
    const position = { block: Number(tx.blockNumber), index: Number(tx.transactionIndex) };
    this.positions.set(key, position);
    return position;
  }

  async code(address: string): Promise<string> {
    return rpc<string>(this.url, 'eth_getCode', [address, 'latest']);
  }

  async logIndexes(hash: string): Promise<number[]> {
    const receipt = await rpc<{ logs: { logIndex: string }[] }>(this.url, 'eth_getTransactionReceipt', [hash]);
    return receipt.logs.map((log) => Number(log.logIndex));
  }

  /** Every frame of a transaction's call tree, depth first, as `staticcall 0x…` (geth's callTracer), lowercase. */
  async frames(hash: string): Promise<string[]> {
    const frames: string[] = [];
    const walk = (frame: CallFrame): void => {
      frames.push(`${frame.type} ${frame.to ?? ''}`.toLowerCase());
      for (const call of frame.calls ?? []) walk(call);
    };
    walk(await this.callTree(hash));
    return frames;
  }

  /**
   * The chain of reverting calls Otterscan's revert trace shows (traceInterpreter.ts
   * findRevertChain): the top call when it reverted, then its last call when that reverted, and so
   * on; as the callees' addresses, lowercase.
   */
  async revertChain(hash: string): Promise<string[]> {
    const chain: string[] = [];
    let frame: CallFrame | undefined = await this.callTree(hash);
    while (frame !== undefined && frame.error === 'execution reverted') {
      chain.push((frame.to ?? '').toLowerCase());
      frame = frame.calls?.at(-1);
    }
    return chain;
  }

  /** The accounts a transaction's state diff names (Parity's stateDiff), lowercase. */
  async stateDiffAccounts(hash: string): Promise<string[]> {
    const replay = await rpc<{ stateDiff: Record<string, unknown> }>(this.url, 'trace_replayTransaction', [hash, ['stateDiff']]);
    return Object.keys(replay.stateDiff).map((a) => a.toLowerCase());
  }

  private callTree(hash: string): Promise<CallFrame> {
    return rpc<CallFrame>(this.url, 'debug_traceTransaction', [hash, { tracer: 'callTracer' }]);
  }
}
