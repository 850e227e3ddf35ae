// serve --upstream keeps up with the node: one look a second (FollowedChain.follow), so /health and
// the chain summary say the node's head, and one line when the node restarted or stopped answering.
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import type { ChainView } from '../replay/chainView.ts';
import type { FollowedChain, FollowNews } from '../upstream/followedChain.ts';

const FOLLOW_MS = 1000;

/** Starts following; the function that stops it. */
export function followUpstream(chain: FollowedChain, log: (line: string) => void, summary: (chain: ChainView) => string): () => void {
  const timer = setInterval(() => {
    void chain.follow().then((news) => {
      if (news !== undefined) log(newsLine(news, chain, summary));
    });
  }, FOLLOW_MS);
  (timer as { unref?: () => void }).unref?.();
  return () => clearInterval(timer);
}

function newsLine(news: FollowNews, chain: FollowedChain, summary: (chain: ChainView) => string): string {
  if (news.kind === 'unreachable') return `blocktrace: ${news.message} (head ${chain.head.number} kept until it answers)`;
  const short = (hash: Uint8Array): string => `${bytesToHex(hash).slice(0, 10)}…`;
  const same = equalsBytes(news.genesis, chain.genesis.hash);
  const what = same ? `went back (head ${news.head} → ${chain.head.number}, same genesis)` : `restarted (head ${news.head} → ${chain.head.number}, genesis ${short(news.genesis)} → ${short(chain.genesis.hash)})`;
  return `blocktrace: ${chain.label} ${what}: the old chain's blocks and traces are dropped; ${summary(chain)}`;
}
