// Upstream mode for the faces: connect to the node, and the forwarder for the methods it answers.
import type { ChainView } from '../replay/chainView.ts';
import type { Forwarder } from '../rpc/context.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { FollowedChain } from '../upstream/followedChain.ts';
import { upstreamForwarder } from '../upstream/forward.ts';
import type { UpstreamSource } from './upstreamArgs.ts';

export interface ChainSource {
  readonly chain: ChainView;
  readonly forward?: Forwarder | undefined;
  /** Upstream mode: the chain, which a long-running face keeps up with the node (FollowedChain.follow). */
  readonly followed?: FollowedChain | undefined;
}

/** The upstream's chain, or undefined after one line on `log` saying why not. */
export async function connectUpstream(source: UpstreamSource, log: (line: string) => void): Promise<ChainSource | undefined> {
  const client = new UpstreamClient(source.url, source.timeoutMs);
  try {
    const chain = await FollowedChain.connect(client, source.genesis);
    return { chain, forward: upstreamForwarder(client, source.forward), followed: chain };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`blocktrace: ${message.split('\n')[0]!.trim()}`);
    return undefined;
  }
}
