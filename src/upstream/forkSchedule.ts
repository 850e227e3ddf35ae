// The forks in order, each with the go-ethereum config keys it sets, and a config of "every fork up
// to X": at genesis, as anvil's report and the inference from a node's answers both put it, or from
// the times a node's eth_config gives.

/** Forks in order, as anvil names them (lowercase), with the config keys they set at genesis. */
const FORKS = [
  ['homestead', { homesteadBlock: 0 }],
  ['tangerine', { eip150Block: 0 }],
  ['spuriousdragon', { eip155Block: 0, eip158Block: 0 }],
  ['byzantium', { byzantiumBlock: 0 }],
  ['constantinople', { constantinopleBlock: 0 }],
  ['petersburg', { petersburgBlock: 0 }],
  ['istanbul', { istanbulBlock: 0 }],
  ['muirglacier', { muirGlacierBlock: 0 }],
  ['berlin', { berlinBlock: 0 }],
  ['london', { londonBlock: 0 }],
  ['arrowglacier', { arrowGlacierBlock: 0 }],
  ['grayglacier', { grayGlacierBlock: 0 }],
  ['paris', { terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true, mergeNetsplitBlock: 0 }],
  ['shanghai', { shanghaiTime: 0 }],
  ['cancun', { cancunTime: 0 }],
  ['prague', { pragueTime: 0 }],
  ['osaka', { osakaTime: 0 }],
  ['bpo1', { bpo1Time: 0 }],
  ['bpo2', { bpo2Time: 0 }],
] as const;

export type ForkName = (typeof FORKS)[number][0];

const ALIASES: Record<string, ForkName> = { merge: 'paris', tangerinewhistle: 'tangerine' };

/** The fork a node names (`Cancun`, `Merge`, `spuriousDragon`); undefined for one not known here. */
export function forkNamed(text: string): ForkName | undefined {
  const plain = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  return ALIASES[plain] ?? FORKS.find(([name]) => name === plain)?.[0];
}

/** Position in fork order (later forks higher). */
export function forkIndex(fork: ForkName): number {
  return FORKS.findIndex(([name]) => name === fork);
}

/** The later of two forks, either of which may be unknown. */
export function laterFork(a: ForkName | undefined, b: ForkName | undefined): ForkName | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return forkIndex(a) >= forkIndex(b) ? a : b;
}

/** The fork at a position in fork order, if any. */
export function forkAt(index: number): ForkName | undefined {
  return FORKS[index]?.[0];
}

/** Whether a fork activates by timestamp (Shanghai on) rather than by block. */
export function timedFork(fork: ForkName): boolean {
  return forkIndex(fork) >= forkIndex('shanghai');
}

/**
 * Every fork up to `last`: at genesis, or a timed fork at the time `times` gives it (eth_config's
 * activation times); a go-ethereum config.
 */
export function configUpTo(chainId: bigint, last: ForkName, times: ReadonlyMap<ForkName, bigint> = new Map()): Record<string, unknown> {
  const config: Record<string, unknown> = { chainId: Number(chainId) };
  for (const [fork, keys] of FORKS.slice(0, forkIndex(last) + 1)) {
    Object.assign(config, keys);
    const time = times.get(fork);
    if (time !== undefined) config[`${fork}Time`] = Number(time);
  }
  return config;
}
