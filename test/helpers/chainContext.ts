// The context of a fixture chain for tests that dispatch to it: loaded once per fixture and file.
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../../src/rpc/context.ts';

const contexts = new Map<string, Promise<RpcContext>>();

/** The RpcContext of the chain at `fixture`, loaded on first use and shared after. */
export function contextFor(fixture: string): Promise<RpcContext> {
  let ctx = contexts.get(fixture);
  if (ctx === undefined) contexts.set(fixture, (ctx = loadChain(fixture).then((chain) => createContext(chain, { log: () => {} }))));
  return ctx;
}
