// One JSON-RPC request made in the process, through the same dispatcher the faces use: the answer's
// bytes (the server's for the same request), or its result, with an error answer thrown as an
// RpcCallError that keeps the JSON-RPC code, message and data.
import type { RpcContext } from './context.ts';
import { dispatch } from './dispatch.ts';

export class RpcCallError extends Error {
  constructor(readonly method: string, readonly code: number, message: string, readonly data?: unknown) {
    super(message);
    this.name = 'RpcCallError';
  }
}

/** The request's body, as a client would send it (id 1). */
export function requestBody(method: string, params: readonly unknown[]): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

/** The answer's text, byte for byte as the server would send it. */
export async function callRaw(ctx: RpcContext, method: string, params: readonly unknown[]): Promise<string> {
  return (await dispatch(requestBody(method, params), ctx)) ?? '';
}

/** The answer's result; an error answer is thrown (RpcCallError). */
export async function call<T = unknown>(ctx: RpcContext, method: string, params: readonly unknown[]): Promise<T> {
  const text = await callRaw(ctx, method, params);
  const json = JSON.parse(text || 'null') as { result?: T; error?: { code: number; message: string; data?: unknown } } | null;
  if (json === null) throw new RpcCallError(method, -32603, 'no answer');
  if (json.error !== undefined) throw new RpcCallError(method, json.error.code, json.error.message, json.error.data);
  return json.result as T;
}

/** eth_getCode at the head, as a report's labels ask it (compare/labels.ts CodeReader); undefined when the chain answers an error. */
export function codeAtHead(ctx: RpcContext): (address: string) => Promise<string | undefined> {
  return async (address) => {
    try {
      return await call<string>(ctx, 'eth_getCode', [address, 'latest']);
    } catch (err) {
      if (err instanceof RpcCallError) return undefined;
      throw err;
    }
  };
}
