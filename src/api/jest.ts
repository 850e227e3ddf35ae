// `import 'blocktrace/jest'` (in `setupFilesAfterEnv`, or at the top of a test file): jest's expect
// gains toMatchTraceSnapshot and toMatchGasSnapshot. jest says the test file, the test's name and its
// snapshot mode (`all` under `jest -u`, `none` under `--ci`, which is on in CI) to every matcher; the
// snapshots no test asked for are reported after the file's tests. jest's expect and afterAll are
// the globals it puts in each test file's environment.
import { type GasSnapshotOptions, gasSnapshotMatcher, type MatcherOutcome, reportObsolete, type RunnerState, traceSnapshotMatcher, updateMode } from './index.ts';

interface JestState {
  readonly isNot: boolean;
  readonly testPath?: string | undefined;
  readonly currentTestName?: string | undefined;
  readonly snapshotState?: { readonly _updateSnapshot?: string } | undefined;
}

type Matcher = (this: JestState, received: unknown, ...args: never[]) => Promise<MatcherOutcome>;

interface JestGlobals {
  readonly expect?: { extend(matchers: Record<string, Matcher>): void };
  readonly afterAll?: (fn: () => void) => void;
}

function runner(state: JestState, matcher: string): RunnerState {
  if (state.isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  if (state.testPath === undefined) throw new Error(`${matcher}: called outside a test (jest names no test file)`);
  return { testPath: state.testPath, testName: state.currentTestName, update: updateMode(false, state.snapshotState?._updateSnapshot), updateFlag: 'jest -u' };
}

const { expect, afterAll } = globalThis as JestGlobals;
if (expect === undefined || afterAll === undefined) {
  throw new Error("blocktrace/jest: jest's global expect and afterAll are missing (is injectGlobals off? then import 'blocktrace/jest' from a file jest sets up with them)");
}

expect.extend({
  toMatchTraceSnapshot(received: unknown, name?: string): Promise<MatcherOutcome> {
    return traceSnapshotMatcher(runner(this, 'toMatchTraceSnapshot'), received, name);
  },
  toMatchGasSnapshot(received: unknown, name?: string, options?: GasSnapshotOptions): Promise<MatcherOutcome> {
    return gasSnapshotMatcher(runner(this, 'toMatchGasSnapshot'), received, name, options);
  },
});

afterAll(() => void reportObsolete());
