// A FIXTURE argument → the chain to replay: `builtin:NAME` is one of the shipped example chains
// (src/fixture/builtin.ts), anything else a path; none at all is the default built-in chain. Read
// and checked now (a FixtureError otherwise); the replay runs when the result is called.
import { DEFAULT_FIXTURE, isBuiltin, readBuiltin } from '../fixture/builtin.ts';
import { prepareChain } from '../replay/loadChain.ts';
import { FixtureChain, type LoadProgress, type ReplayCache } from '../replay/chain.ts';
import type { ChainView } from '../replay/chainView.ts';

export { DEFAULT_FIXTURE };

/** `notice`: where the fixture's reader says what it chose (a state test's default fork and index). */
export async function prepareFixture(fixture: string | undefined, notice?: (line: string) => void): Promise<(progress?: LoadProgress, cache?: ReplayCache) => Promise<ChainView>> {
  const name = fixture ?? DEFAULT_FIXTURE;
  if (!isBuiltin(name)) return prepareChain(name, notice);
  const spec = await readBuiltin(name);
  return (progress, cache) => FixtureChain.load(spec, progress, cache);
}
