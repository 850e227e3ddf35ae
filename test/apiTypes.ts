// The package's hand-written types (src/api/types/index.d.ts, shipped as dist/lib/index.d.ts) held to
// the sources: `npm run typecheck` (tsc --noEmit) fails on the first that drifts. Types only: nothing
// here runs.
import type * as Dist from '../src/api/types/index.d.ts';
import type * as Src from '../src/api/index.ts';

/** true when each type is assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** true when every value of A is one of B (the shipped type may be narrower: a Chain for `object`). */
type Within<A, B> = [A] extends [B] ? true : false;

export const agree: readonly true[] = [
  true satisfies Same<typeof Dist.openChain, typeof Src.openChain>,
  true satisfies Same<Dist.Chain, Src.Chain>,
  true satisfies Same<Dist.ChainSourceOption, Src.ChainSourceOption>,
  true satisfies Same<Dist.OpenOptions, Src.OpenOptions>,
  true satisfies Same<Dist.TraceOptions, Src.TraceOptions>,
  true satisfies Same<Dist.RpcCallError, Src.RpcCallError>,
  true satisfies Same<Dist.SnapshotConfig, Src.SnapshotConfig>,
  true satisfies Same<typeof Dist.configure, typeof Src.configure>,
  true satisfies Same<Dist.GasSnapshotOptions, Src.GasSnapshotOptions>,
  true satisfies Same<Dist.RunnerState, Src.RunnerState>,
  true satisfies Same<Dist.MatcherOutcome, Src.MatcherOutcome>,
  true satisfies Same<typeof Dist.updateMode, typeof Src.updateMode>,
  true satisfies Same<typeof Dist.expectMatchers, typeof Src.expectMatchers>,
  true satisfies Same<typeof Dist.traceSnapshotMatcher, typeof Src.traceSnapshotMatcher>,
  true satisfies Same<typeof Dist.gasSnapshotMatcher, typeof Src.gasSnapshotMatcher>,
  true satisfies Same<typeof Dist.reportObsolete, typeof Src.reportObsolete>,
  true satisfies Within<Dist.TraceReceived, Src.TraceReceived>,
  true satisfies Within<Dist.GasReceived, Src.GasReceived>,
];
