// What a matcher needs to know of the runner that called it, and what every adapter shares: the
// update mode (the runner's own: `vitest -u`, `jest -u`, `bun test --update-snapshots`; in CI a
// missing snapshot is not written), the snapshot's name, and the snapshot files a run has read, so
// that the ones no test asked for can be reported at the end.
import { dirname, join } from 'node:path';
import type { MatcherOutcome, RunnerState } from './types/index.d.ts';

export type { MatcherOutcome, RunnerState };

/** `CI` set to anything but empty, `0` or `false`, as ci-info reads it for jest and vitest. */
export const inCi = (): boolean => !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** The runner's mode, made `none` in CI where the runner itself would still write new snapshots. */
export function updateMode(all: boolean, runnerMode?: string): RunnerState['update'] {
  if (all || runnerMode === 'all') return 'all';
  if (runnerMode === 'none' || inCi()) return 'none';
  return 'new';
}

/** `__traces__/` beside the test file. */
export const tracesDir = (testPath: string): string => join(dirname(testPath), '__traces__');

const counters = new Map<string, number>();

/**
 * The snapshot's name: the one given, else the test's name and its count in that test (`deposit 1`,
 * `deposit 2`, as the runners name their own), else `fallback` (a runner that names no test: bun).
 */
export function snapshotName(state: RunnerState, kind: string, given: string | undefined, fallback: string): string {
  if (given !== undefined) {
    if (typeof given !== 'string' || given.trim() === '') throw new TypeError(`${kind}: the snapshot's name must be a non-empty string`);
    return given;
  }
  if (state.testName === undefined || state.testName === '') return fallback;
  const key = `${kind}\0${state.testPath}\0${state.testName}`;
  const n = (counters.get(key) ?? 0) + 1;
  counters.set(key, n);
  return `${state.testName} ${n}`;
}

/** Every trace snapshot file read or written in this process, by the test file it belongs to. */
export const seen = new Map<string, Set<string>>();

export function markSeen(testPath: string, file: string): void {
  let files = seen.get(testPath);
  if (files === undefined) seen.set(testPath, (files = new Set()));
  files.add(file);
}

/** Gas snapshot names checked in this process, by gas file, with the test file it belongs to. */
export const seenGas = new Map<string, { readonly testPath: string; readonly names: Set<string> }>();

export function markGasSeen(testPath: string, file: string, name: string): void {
  let entry = seenGas.get(file);
  if (entry === undefined) seenGas.set(file, (entry = { testPath, names: new Set() }));
  entry.names.add(name);
}

/** Test files where a snapshot failed or could not be made: the tests after it in the file never asked for theirs. */
export const failedFiles = new Set<string>();

/** Runs a matcher, its test file marked when the snapshot fails or the matcher throws. */
export async function noted(testPath: string, judge: () => Promise<MatcherOutcome>): Promise<MatcherOutcome> {
  try {
    const outcome = await judge();
    if (!outcome.pass) failedFiles.add(testPath);
    return outcome;
  } catch (err) {
    failedFiles.add(testPath);
    throw err;
  }
}
