// Load progress on stderr, only when a person watches it (stderr is a terminal): whether the blocks
// are replayed or read from the replay snapshot, blocks and tx/s, and how long it took.
import type { LoadPhase, LoadProgress } from '../replay/chain.ts';

const WORDS: Record<LoadPhase, { doing: string; done: string }> = {
  replaying: { doing: 'replaying', done: 'replayed' },
  restoring: { doing: 'reading the replay snapshot', done: 'read the replay snapshot of' },
};

export function loadProgress(stream: NodeJS.WriteStream): LoadProgress | undefined {
  if (stream.isTTY !== true) return undefined;
  const started = performance.now();
  let shown = 0;
  return (done, total, txs, _head, phase = 'replaying') => {
    const now = performance.now();
    if (done < total && now - shown < 100) return;
    shown = now;
    const seconds = Math.max((now - started) / 1000, 1e-3);
    const rate = (txs / seconds).toFixed(0);
    const words = WORDS[phase];
    stream.write(
      done < total
        ? `\r${words.doing}: block ${done}/${total}, ${txs} txs, ${rate} tx/s`
        : `\r${words.done} ${total} blocks, ${txs} txs in ${seconds.toFixed(2)} s${phase === 'replaying' ? ` (${rate} tx/s)` : ''}\n`,
    );
  };
}
