// Public-key recovery with libsecp256k1, for the sender worker (senderWorker.ts): the WebAssembly
// build that bitcoinjs ships as tiny-secp256k1, about twice as fast here as the pure-JS noble curve
// ethereumjs's ecrecover uses, which makes the worker keep ahead of the replay. Only its .wasm file
// is used, instantiated here as its own wrapper (tiny-secp256k1/lib/index.js, recover) does: the
// inputs written at the addresses the module exports, recover(65, id), the key read back. The file
// is a `type: 'file'` import, so `bun build --compile` embeds it. A key from here is the one
// ethereumjs recovers (test/fixture/senders.test.ts, src/replay/secp256k1.test.ts); a signature it
// cannot recover gets null, and the replay leaves that transaction to ethereumjs.
import { readFileSync } from 'node:fs';
// by path: the package's exports do not name the file
import wasmPath from '../../node_modules/tiny-secp256k1/lib/secp256k1.wasm' with { type: 'file' };

interface Exports {
  readonly memory: WebAssembly.Memory;
  readonly HASH_INPUT: WebAssembly.Global;
  readonly SIGNATURE_INPUT: WebAssembly.Global;
  readonly PUBLIC_KEY_INPUT: WebAssembly.Global;
  initializeContext(): void;
  recover(outputLength: number, recoveryId: number): number;
}

/** The 64-byte public key (x ‖ y) that signed `hash` with (r, s) and recovery id 0 or 1, or null. */
export type Recover = (hash: Uint8Array, r: Uint8Array, s: Uint8Array, recoveryId: number) => Uint8Array | null;

/** libsecp256k1's recovery, or undefined where its WebAssembly cannot be read or instantiated. */
export function loadRecover(): Recover | undefined {
  let wasm: Exports;
  try {
    const module = new WebAssembly.Module(readFileSync(wasmPath));
    const imports = {
      './rand.js': { generateInt32: () => crypto.getRandomValues(new Int32Array(1))[0]! },
      './validate_error.js': {
        throwError: (code: number) => {
          throw new Error(`secp256k1 input refused (${code})`);
        },
      },
    };
    wasm = new WebAssembly.Instance(module, imports).exports as unknown as Exports;
    wasm.initializeContext();
  } catch {
    return undefined;
  }
  const hashAt = wasm.HASH_INPUT.value as number;
  const signatureAt = wasm.SIGNATURE_INPUT.value as number;
  const keyAt = wasm.PUBLIC_KEY_INPUT.value as number;
  return (hash, r, s, recoveryId) => {
    if (hash.length !== 32 || r.length > 32 || s.length > 32 || (recoveryId !== 0 && recoveryId !== 1)) return null;
    const memory = new Uint8Array(wasm.memory.buffer);
    memory.set(hash, hashAt);
    memory.fill(0, signatureAt, signatureAt + 64);
    memory.set(r, signatureAt + 32 - r.length);
    memory.set(s, signatureAt + 64 - s.length);
    try {
      // 65: the uncompressed key, 0x04 ‖ x ‖ y
      return wasm.recover(65, recoveryId) === 1 ? memory.slice(keyAt + 1, keyAt + 65) : null;
    } catch {
      return null;
    } finally {
      memory.fill(0, keyAt, keyAt + 65);
    }
  };
}
