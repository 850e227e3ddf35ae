// Block selectors → chain blocks. `pending` is the head (a fixture has no pending block).
import type { ChainBlock, ChainView } from '../../replay/chainView.ts';
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

