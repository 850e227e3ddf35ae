// `import 'blocktrace/bun'` (a `preload` of bunfig.toml's [test], or at the top of a test file):
// bun:test's expect gains toMatchTraceSnapshot and toMatchGasSnapshot. bun tells a matcher neither
// the test's name nor its snapshot mode: the test file is Bun.main, a snapshot without a name is
// named from what it asks (as `record` names a request), and `bun test -u` / `--update-snapshots` is
// read from the process's command line (Linux) or BLOCKTRACE_UPDATE_SNAPSHOTS=1 (anywhere).
import { afterAll, expect } from 'bun:test';
import { readFileSync } from 'node:fs';
import { type GasSnapshotOptions, gasSnapshotMatcher, type MatcherOutcome, reportObsolete, type RunnerState, traceSnapshotMatcher, updateMode } from './index.ts';

/** Whether bun test was started with -u / --update-snapshots (the JS argv has only the test file). */
function updateFlag(): boolean {
  if (process.env.BLOCKTRACE_UPDATE_SNAPSHOTS === '1') return true;
  try {
    const args = readFileSync('/proc/self/cmdline', 'utf8').split('\0');
    return args.includes('-u') || args.includes('--update-snapshots');
  } catch {
    return false;
  }
}

const update = updateMode(updateFlag());

function runner(isNot: boolean, matcher: string): RunnerState {
  if (isNot) throw new Error(`${matcher}: .not is not supported (a snapshot either matches or says what differs)`);
  return { testPath: Bun.main, update, updateFlag: 'bun test --update-snapshots' };
}

expect.extend({
  toMatchTraceSnapshot(received: unknown, name?: string): Promise<MatcherOutcome> {
    return traceSnapshotMatcher(runner(this.isNot, 'toMatchTraceSnapshot'), received, name);
  },
  toMatchGasSnapshot(received: unknown, name?: string, options?: GasSnapshotOptions): Promise<MatcherOutcome> {
    return gasSnapshotMatcher(runner(this.isNot, 'toMatchGasSnapshot'), received, name, options);
  },
});

afterAll(() => void reportObsolete());
