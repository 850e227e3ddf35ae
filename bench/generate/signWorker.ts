// A signing worker of the generator (signPool.ts): signs the ranges it is sent, in order, and sends
// each back as one transferred buffer.
import { loadKeccak } from '../../src/replay/keccak.ts';
import { senderKeys, signRange } from './sign.ts';

declare const self: Worker;

// the handler is set at once: a message that arrives before it is set is lost
const ready = loadKeccak().then(() => senderKeys());
let queue = Promise.resolve();
self.onmessage = (event: MessageEvent<{ from: number; count: number }>) => {
  queue = queue.then(async () => {
    const range = signRange(event.data.from, event.data.count, await ready);
    self.postMessage(range, [range.bytes.buffer as ArrayBuffer, range.ends.buffer as ArrayBuffer]);
  });
};
