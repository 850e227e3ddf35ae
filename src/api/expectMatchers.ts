// The two matchers as vitest's and jest's `expect.extend` take them: both runners give a custom
// matcher the same `this` (the test file, the test's name, `.not`, the snapshot mode), so one pair
// serves both adapters, each naming its runner and its update flag.
import { gasSnapshotMatcher } from './gasSnapshot.ts';
import { type RunnerState, updateMode } from './runner.ts';
import { traceSnapshotMatcher } from './traceSnapshot.ts';
import type { ExpectMatchers, ExpectState } from './types/index.d.ts';

export type { ExpectMatchers, ExpectState };

/** toMatchTraceSnapshot and toMatchGasSnapshot for the expect of `runner` (`vitest`, `jest`), updated by `updateFlag`. */
export function expectMatchers(runner: string, updateFlag: string): ExpectMatchers {
  const state = (expect: ExpectState, matcher: string): RunnerState => {
    if (expect.isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
    if (expect.testPath === undefined) throw new Error(`${matcher}: called outside a test (${runner} names no test file)`);
    return { testPath: expect.testPath, testName: expect.currentTestName, update: updateMode(false, expect.snapshotState?._updateSnapshot), updateFlag };
  };
  return {
    toMatchTraceSnapshot(received, name) {
      return traceSnapshotMatcher(state(this, 'toMatchTraceSnapshot'), received, name);
    },
    toMatchGasSnapshot(received, name, options) {
      return gasSnapshotMatcher(state(this, 'toMatchGasSnapshot'), received, name, options);
    },
  };
}
