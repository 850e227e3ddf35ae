// The shipped fixture `serve` answers from when given none. It is imported as text, so that the
// esbuild bundle and the compiled binary carry it inside and work from any directory; it goes
// through the same JSON.parse and loader as a fixture read from disk.
import { FixtureError } from '../errors/fixtureError.ts';
import { fromBlocktraceJson } from '../fixture/blocktraceJson.ts';
import { isObject } from '../fixture/json.ts';
import { FixtureChain, type LoadProgress, type ReplayCache } from '../replay/chain.ts';
import type { ChainView } from '../replay/chainView.ts';

export const DEFAULT_FIXTURE_NAME = 'golden/fixtures/prague-devnet/fixture.json';

/** The built-in fixture read now; its replay runs when the result is called. */
export async function prepareDefaultChain(): Promise<(progress?: LoadProgress, cache?: ReplayCache) => Promise<ChainView>> {
  // Bun (source and --compile) and esbuild all read `type: 'text'`; tsc types the specifier as JSON
  const module: { default: unknown } = await import('../../golden/fixtures/prague-devnet/fixture.json', { with: { type: 'text' } });
  const label = `${DEFAULT_FIXTURE_NAME} (built in)`;
  if (typeof module.default !== 'string') throw new FixtureError(`${label}: not embedded as text`);
  const json: unknown = JSON.parse(module.default);
  if (!isObject(json)) throw new FixtureError(`${label}: a fixture must be a JSON object`);
  const spec = fromBlocktraceJson(label, json);
  return (progress, cache) => FixtureChain.load(spec, progress, cache);
}
