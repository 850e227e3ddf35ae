// The RpcContext behind each Chain that openChain gave: the matchers answer a snapshot's request
// through the chain's own context, without the context being part of the Chain a user sees.
import type { RpcContext } from '../rpc/context.ts';

const contexts = new WeakMap<object, () => RpcContext>();

/** Ties `chain` to its context; `live` throws once the chain is closed. */
export function bindContext(chain: object, live: () => RpcContext): void {
  contexts.set(chain, live);
}

/** The context of a chain from openChain; undefined for any other value. */
export function contextOf(chain: unknown): (() => RpcContext) | undefined {
  return typeof chain === 'object' && chain !== null ? contexts.get(chain) : undefined;
}
