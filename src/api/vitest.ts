// `import 'blocktrace/vitest'` (in a setup file, or at the top of a test file): vitest's expect gains
// toMatchTraceSnapshot and toMatchGasSnapshot. vitest says the test file, the test's name and its
// snapshot mode (`all` under `vitest -u`, `none` in CI) to every matcher; the snapshots no test
// asked for are reported after the file's tests.
import { afterAll, expect } from 'vitest';
import { expectMatchers, reportObsolete } from './index.ts';

expect.extend(expectMatchers('vitest', 'vitest -u') as unknown as Parameters<typeof expect.extend>[0]);

afterAll(() => void reportObsolete());
