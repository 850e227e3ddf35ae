// Block selectors → chain blocks. `pending` is the head (a fixture has no pending block).
import type { ChainBlock, ChainView } from '../../replay/chainView.ts';
// the two lookups the debugger shares, below rpc/: re-exported for the handlers
export { fetchTx, isGenesis } from '../../replay/chainView.ts';
import type { BlockSelector } from '../schemas.ts';

export function resolveBlock(chain: ChainView, selector: BlockSelector): ChainBlock | undefined {
  if ('number' in selector) return chain.blockByNumber(selector.number);
  switch (selector.tag) {
    case 'earliest':
      return chain.genesis;
    case 'latest':
    case 'pending':
      return chain.head;
    case 'finalized':
      return chain.finalized;
    case 'safe':
      return chain.safe;
  }
}

// The tracing handlers also serve chains that fetch blocks on demand (upstream mode): they ask the
// chain's fetcher when it has one.

export async function fetchBlock(chain: ChainView, selector: BlockSelector): Promise<ChainBlock | undefined> {
  if (chain.fetch === undefined) return resolveBlock(chain, selector);
  return 'number' in selector ? chain.fetch.byNumber(selector.number) : chain.fetch.byTag(selector.tag);
}

export async function fetchBlockByHash(chain: ChainView, hash: Uint8Array): Promise<ChainBlock | undefined> {
  return chain.fetch !== undefined ? chain.fetch.byHash(hash) : chain.blockByHash(hash);
}


