// Upstream mode for the faces: connect to the node, and the forwarder for the methods it answers.
import type { ChainView } from '../replay/chainView.ts';
import type { Forwarder } from '../rpc/context.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { upstreamForwarder } from '../upstream/forward.ts';
import { UpstreamChain } from '../upstream/upstreamChain.ts';
import type { UpstreamSource } from './upstreamArgs.ts';

export interface ChainSource {
  readonly chain: ChainView;
  readonly forward?: Forwarder | undefined;
}

/** The upstream's chain, or undefined after one line on `log` saying why not. */
export async function connectUpstream(source: UpstreamSource, log: (line: string) => void): Promise<ChainSource | undefined> {
  const client = new UpstreamClient(source.url, source.timeoutMs);
  try {
    const chain = await UpstreamChain.connect(client, source.genesis);
    return { chain, forward: upstreamForwarder(client, source.forward) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    log(`blocktrace: ${message.split('\n')[0]!.trim()}`);
    return undefined;
  }
}
