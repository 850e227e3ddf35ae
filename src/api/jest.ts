// `import 'blocktrace/jest'` (in `setupFilesAfterEnv`, or at the top of a test file): jest's expect
// gains toMatchTraceSnapshot and toMatchGasSnapshot. jest says the test file, the test's name and its
// snapshot mode (`all` under `jest -u`, `none` under `--ci`, which is on in CI) to every matcher; the
// snapshots no test asked for are reported after the file's tests. jest's expect and afterAll are
// the globals it puts in each test file's environment.
import { type ExpectMatchers, expectMatchers, reportObsolete } from './index.ts';

interface JestGlobals {
  readonly expect?: { extend(matchers: ExpectMatchers): void };
  readonly afterAll?: (fn: () => void) => void;
}

const { expect, afterAll } = globalThis as JestGlobals;
if (expect === undefined || afterAll === undefined) {
  throw new Error("blocktrace/jest: jest's global expect and afterAll are missing (is injectGlobals off? then import 'blocktrace/jest' from a file jest sets up with them)");
}

expect.extend(expectMatchers('jest', 'jest -u'));

afterAll(() => void reportObsolete());
