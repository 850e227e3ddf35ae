// Fixture path → a loaded, replayed, header-checked chain. Throws FixtureError with one line.
import { readFixture } from '../fixture/detect.ts';
import { FixtureChain, type LoadProgress, type ReplayCache } from './chain.ts';
import type { ChainView } from './chainView.ts';

export async function loadChain(path: string, progress?: LoadProgress, cache?: ReplayCache): Promise<ChainView> {
  return FixtureChain.load(readFixture(path), progress, cache);
}

/** Reads and checks the fixture now (throws FixtureError); the replay runs when the result is called. `notice`: readFixture's. */
export function prepareChain(path: string, notice?: (line: string) => void): (progress?: LoadProgress, cache?: ReplayCache) => Promise<ChainView> {
  const spec = readFixture(path, notice);
  return (progress, cache) => FixtureChain.load(spec, progress, cache);
}
