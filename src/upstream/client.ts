// JSON-RPC over HTTP to the upstream node. Every call has a deadline; every failure is an
// UpstreamError naming the upstream, the method and what went wrong, so a dead or slow node gives a
// clear JSON-RPC error and never a hang.
import { UpstreamError } from '../errors/upstreamError.ts';

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

/** Messages of nodes asked for state or blocks they no longer (or never) had. */
const MISSING_HISTORY = /missing trie node|header not found|historical state|state .*(not available|unavailable|pruned)|not available|BlockOutOfRange|block out of range|required historical state/i;

interface RpcAnswer {
  result?: unknown;
  error?: { code?: number; message?: string };
}

export class UpstreamClient {
  private nextId = 1;

  constructor(readonly url: string, readonly timeoutMs: number = DEFAULT_UPSTREAM_TIMEOUT_MS) {}

  /** One call; the result, or an UpstreamError. */
  async call<T>(method: string, params: readonly unknown[]): Promise<T> {
    const text = await this.post(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }), method);
    let answer: RpcAnswer;
    try {
      answer = JSON.parse(text) as RpcAnswer;
    } catch {
      throw this.error(`${method}: the answer is not JSON: ${text.slice(0, 120)}`);
    }
    if (answer.error !== undefined && answer.error !== null) {
      const message = answer.error.message ?? JSON.stringify(answer.error);
      if (MISSING_HISTORY.test(message)) {
        throw this.error(`${method}: the node lacks this history (${message}); an archive node is needed`);
      }
      const missing = answer.error.code === -32601 || /method not found|not supported|does not exist/i.test(message);
      throw this.error(`${method}: ${message}`, missing);
    }
    return answer.result as T;
  }

  /** Sends a request body as it came and returns the node's answer text unchanged (trailing newline aside). */
  async forward(body: string, method: string): Promise<string> {
    return (await this.post(body, method)).replace(/\s+$/, '');
  }

  private async post(body: string, method: string): Promise<string> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.failure(err, method);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (err) {
      throw this.failure(err, method);
    }
    if (!response.ok && text.trim() === '') throw this.error(`${method}: HTTP ${response.status}`);
    return text;
  }

  private failure(err: unknown, method: string): UpstreamError {
    const name = err instanceof Error ? err.name : '';
    if (name === 'TimeoutError' || name === 'AbortError') {
      return this.error(`${method}: no answer within ${this.timeoutMs} ms`);
    }
    const message = err instanceof Error ? err.message : String(err);
    return this.error(`${method}: unreachable (${message})`);
  }

  private error(message: string, methodMissing = false): UpstreamError {
    return new UpstreamError(`upstream ${this.url}: ${message}`, methodMissing);
  }
}
