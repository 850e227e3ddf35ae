// Load progress on stderr, only when a person watches it (stderr is a terminal): blocks and tx/s.
import type { LoadProgress } from '../replay/chain.ts';

export function loadProgress(stream: NodeJS.WriteStream): LoadProgress | undefined {
  if (stream.isTTY !== true) return undefined;
  const started = performance.now();
  let shown = 0;
  return (done, total, txs) => {
    const now = performance.now();
    if (done < total && now - shown < 100) return;
    shown = now;
    const rate = txs / Math.max((now - started) / 1000, 1e-3);
    stream.write(`\rreplaying: block ${done}/${total}, ${txs} txs, ${rate.toFixed(0)} tx/s${done === total ? '\n' : ''}`);
  };
}
