// Keccak-256 for ethereumjs (Common customCrypto): hash-wasm's WebAssembly keccak is several times
// faster than the pure-JS default, and trie hashing is the largest single cost of a replay. Its
// keccak-only build: the package's index decodes every algorithm it has when imported (wasm.d.ts).
import { createKeccak } from 'hash-wasm/dist/keccak.umd.min.js';

let ready: Promise<(data: Uint8Array) => Uint8Array> | undefined;

export function loadKeccak(): Promise<(data: Uint8Array) => Uint8Array> {
  ready ??= createKeccak(256).then((hasher) => (data: Uint8Array) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  });
  return ready;
}
