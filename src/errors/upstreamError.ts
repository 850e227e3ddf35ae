import { RpcError } from './rpcErrors.ts';

/**
 * -32000: the upstream node (upstream mode, capture) failed, timed out or cannot serve what was
 * asked (pruned history). The message always names the upstream URL.
 */
export class UpstreamError extends RpcError {
  static readonly code = -32000;
  override readonly name = 'UpstreamError';
  readonly code = UpstreamError.code;

  /** @param methodMissing the node answered that it has no such method (-32601). */
  constructor(message: string, readonly methodMissing = false) {
    super(message);
  }
}
