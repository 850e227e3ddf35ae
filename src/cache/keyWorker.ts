// The worker of fixtureKeyLater (fixtureKey.ts): given a fixture's path, its snapshot key.
import { fixtureKey } from './fixtureKey.ts';

declare const self: Worker;

self.onmessage = (event: MessageEvent<string>) => {
  try {
    self.postMessage({ key: fixtureKey(event.data) });
  } catch (err) {
    self.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
