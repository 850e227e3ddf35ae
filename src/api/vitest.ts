// `import 'blocktrace/vitest'` (in a setup file, or at the top of a test file): vitest's expect gains
// toMatchTraceSnapshot and toMatchGasSnapshot. vitest says the test file, the test's name and its
// snapshot mode (`all` under `vitest -u`, `none` in CI) to every matcher; the snapshots no test
// asked for are reported after the file's tests.
import { afterAll, expect } from 'vitest';
import { type GasSnapshotOptions, gasSnapshotMatcher, type MatcherOutcome, reportObsolete, type RunnerState, traceSnapshotMatcher, updateMode } from './index.ts';

interface VitestState {
  readonly isNot: boolean;
  readonly testPath?: string | undefined;
  readonly currentTestName?: string | undefined;
  readonly snapshotState?: { readonly _updateSnapshot?: string } | undefined;
}

function runner(state: VitestState, matcher: string): RunnerState {
  if (state.isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  if (state.testPath === undefined) throw new Error(`${matcher}: called outside a test (vitest names no test file)`);
  return { testPath: state.testPath, testName: state.currentTestName, update: updateMode(false, state.snapshotState?._updateSnapshot), updateFlag: 'vitest -u' };
}

expect.extend({
  toMatchTraceSnapshot(received: unknown, name?: string): Promise<MatcherOutcome> {
    return traceSnapshotMatcher(runner(this as unknown as VitestState, 'toMatchTraceSnapshot'), received, name);
  },
  toMatchGasSnapshot(received: unknown, name?: string, options?: GasSnapshotOptions): Promise<MatcherOutcome> {
    return gasSnapshotMatcher(runner(this as unknown as VitestState, 'toMatchGasSnapshot'), received, name, options);
  },
});

afterAll(() => void reportObsolete());
