// Forks as a node names them, their order, and a config of "every fork up
// to X": at genesis, as anvil's report and the inference from a node's answers both put it, or from
// the times a node's eth_config gives. The table of forks is fixture/forks.ts.
import { FORKS, type ForkName, forkPosition } from '../fixture/forks.ts';

export type { ForkName };

/** The fork a node names (`Cancun`, `Merge`, `spuriousDragon`); undefined for one not known here. */
export function forkNamed(text: string): ForkName | undefined {
  const i = forkPosition(text.replace(/[^a-zA-Z0-9]/g, ''));
  return i === undefined ? undefined : FORKS[i]!.name;
}

/** Position in fork order (later forks higher). */
export function forkIndex(fork: ForkName): number {
  return forkPosition(fork)!;
}

/** The later of two forks, either of which may be unknown. */
export function laterFork(a: ForkName | undefined, b: ForkName | undefined): ForkName | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return forkIndex(a) >= forkIndex(b) ? a : b;
}

/** The fork at a position in fork order, if any. */
export function forkAt(index: number): ForkName | undefined {
  return FORKS[index]?.name;
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
  for (const fork of FORKS.slice(0, forkIndex(last) + 1)) {
    // proof of work is over at genesis
    if (fork.name === 'paris') Object.assign(config, { terminalTotalDifficulty: 0, terminalTotalDifficultyPassed: true });
    const time = times.get(fork.name);
    for (const key of fork.keys) config[key] = time === undefined ? 0 : Number(time);
  }
  return config;
}
