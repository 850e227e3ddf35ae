// Fixture path → a loaded, replayed, header-checked chain. Throws FixtureError with one line.
import { readFixture } from '../fixture/detect.ts';
import { FixtureChain, type LoadProgress } from './chain.ts';
import type { ChainView } from './chainView.ts';

export async function loadChain(path: string, progress?: LoadProgress): Promise<ChainView> {
  return FixtureChain.load(readFixture(path), progress);
}

/** Reads and checks the fixture now (throws FixtureError); the replay runs when the result is called. */
export function prepareChain(path: string): (progress?: LoadProgress) => Promise<ChainView> {
  const spec = readFixture(path);
  return (progress) => FixtureChain.load(spec, progress);
}
