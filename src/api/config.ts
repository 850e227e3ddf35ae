// `configure({ abi, ignore })`: what every trace snapshot of the process is compared with, given once
// (a setup file, or the top of a test file). The ABI directories decode a failure's report as
// `check --abi` does; the ignore rules are check's `--ignore`. Both are read and checked here, so a
// wrong path or rule is one thrown error at the call, not a failure of every snapshot after it.
import { readAbiDirs } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { type IgnoreRules, NO_IGNORES, parseIgnores } from '../compare/ignore.ts';
import type { SnapshotConfig } from './types/index.d.ts';

export type { SnapshotConfig };

export interface Settings {
  readonly decoder: AbiDecoder | undefined;
  readonly ignore: IgnoreRules;
}

let settings: Settings = { decoder: undefined, ignore: NO_IGNORES };

/** Replaces the settings of every later snapshot comparison; throws an Error naming a path or rule it cannot use. */
export function configure(options: SnapshotConfig): void {
  const ignore = parseIgnores(options.ignore ?? []);
  const artifacts = readAbiDirs(options.abi ?? [], (line) => console.warn(line));
  settings = { decoder: artifacts.length === 0 ? undefined : new AbiDecoder(artifacts), ignore };
}

export const currentSettings = (): Settings => settings;
