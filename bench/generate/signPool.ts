// Worker threads that sign the generated chain's transactions (signWorker.ts) ahead of the main
// thread, which runs the state and writes the file. A bounded number of ranges is in flight, so the
// signed transactions waiting in memory stay a few thousand whatever the chain's length.
import type { SignedRange } from './sign.ts';

const RANGE = 1_000;
const AHEAD_PER_WORKER = 3;

/** Transactions 0 … total - 1, signed by `threads` workers, in order, RANGE at a time. */
export async function* signedRanges(total: number, threads: number): AsyncGenerator<SignedRange> {
  const workers = Array.from({ length: threads }, () => new Worker(new URL('./signWorker.ts', import.meta.url).href));
  const waiting = workers.map(() => [] as ((range: SignedRange) => void)[]);
  const failed = new Promise<never>((_, reject) => {
    workers.forEach((worker, w) => {
      worker.onmessage = (event: MessageEvent<SignedRange>) => waiting[w]!.shift()!(event.data);
      worker.onerror = (event) => reject(new Error(`signing worker: ${event.message}`));
    });
  });
  failed.catch(() => {}); // raced below while ranges are awaited; unobserved after
  const inFlight: Promise<SignedRange>[] = [];
  let next = 0;
  let index = 0;
  const send = () => {
    const w = index++ % threads;
    const count = Math.min(RANGE, total - next);
    inFlight.push(new Promise<SignedRange>((done) => waiting[w]!.push(done)));
    workers[w]!.postMessage({ from: next, count });
    next += count;
  };
  try {
    while (next < total && inFlight.length < threads * AHEAD_PER_WORKER) send();
    while (inFlight.length > 0) {
      const range = await Promise.race([inFlight.shift()!, failed]);
      if (next < total) send();
      yield range;
    }
  } finally {
    for (const worker of workers) worker.terminate();
  }
}
