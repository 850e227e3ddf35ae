// The sender-recovery worker (replay/senders.ts): recovers the public key of each signature it is
// sent with ethereumjs's own ecrecover, the function a transaction calls when it has no other, so a
// replay's expensive secp256k1 work runs on a second core beside the EVM.
import { ecrecover } from '@ethereumjs/util';
import type { SenderJob, SenderKeys } from './senders.ts';

declare const self: { onmessage: ((event: MessageEvent<SenderJob>) => void) | null; postMessage(message: SenderKeys): void };

self.onmessage = (event) => {
  const { block, items } = event.data;
  const keys = items.map((item) => {
    try {
      return ecrecover(item.hash, item.v, item.r, item.s, item.chainId);
    } catch {
      return null; // the replay's own call fails the same way, with ethereumjs's message
    }
  });
  self.postMessage({ block, keys });
};
