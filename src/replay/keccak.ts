// Keccak-256 for ethereumjs (Common customCrypto): hash-wasm's WebAssembly keccak is several times
// faster than the pure-JS default, and trie hashing is the largest single cost of a replay. Its
// keccak-only build: the package's index decodes every algorithm it has when imported (wasm.d.ts).
// Making it compiles its WebAssembly on the main thread, a visible part of a short start; a start
// from a snapshot hashes little (a few dozen headers), so it hashes with `keccakNow`, noble's
// pure-JS keccak until the WebAssembly one is made, which it asks for later.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createKeccak } from 'hash-wasm/dist/keccak.umd.min.js';

type Keccak = (data: Uint8Array) => Uint8Array;

let ready: Promise<Keccak> | undefined;
let made: Keccak | undefined;

export function loadKeccak(): Promise<Keccak> {
  ready ??= createKeccak(256).then((hasher) => {
    made = (data: Uint8Array) => {
      hasher.init();
      hasher.update(data);
      return hasher.digest('binary');
    };
    return made;
  });
  return ready;
}

/** Keccak-256 with the WebAssembly hasher once loadKeccak has made it, noble's until then (same bytes). */
export function keccakNow(data: Uint8Array): Uint8Array {
  return made !== undefined ? made(data) : keccak_256(data);
}

/** Makes the WebAssembly hasher after `ms`, without keeping the process alive for it. */
export function loadKeccakLater(ms: number): void {
  const timer = setTimeout(() => void loadKeccak(), ms) as unknown as { unref?: () => void };
  timer.unref?.();
}
