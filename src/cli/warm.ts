// `serve --warm`: after the load, every block is recorded in the background (one after another,
// the recorder yielding to requests), so that first requests find their recording ready.
import type { ChainView } from '../replay/chainView.ts';

export async function warm(chain: ChainView, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  let blocks = 0;
  for (let n = chain.genesis.number + 1n; n <= chain.head.number; n++) {
    const block = chain.blockByNumber(n);
    if (block === undefined) continue;
    try {
      await chain.recordBlock(block, { state: true }); // with state: it serves every tracer
      blocks++;
    } catch (err) {
      log(`blocktrace: warming block ${n} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    }
  }
  log(`blocktrace: warm: ${blocks} blocks traced in ${Math.round(performance.now() - started)} ms`);
}
