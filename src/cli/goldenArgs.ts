// argv of the `check` and `record` subcommands → typed options. Pure, like args.ts, which calls it.
import type { CompareMode } from '../golden/compare.ts';

export type Reporter = 'text' | 'json' | 'junit' | 'github';

/** `--shard I/N`: the Ith of N (1-based). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

export interface CheckCommand {
  readonly kind: 'check';
  readonly fixture: string;
  readonly goldens: readonly string[];
  readonly mode: CompareMode;
  /** `--reporter`, `--json` being `--reporter json`. */
  readonly reporter: Reporter;
  readonly filters: readonly string[];
  /** `--ignore NAME|$.path` rules as given (checked here). */
  readonly ignores: readonly string[];
  /** `--abi DIR`: artifacts that decode the report. */
  readonly abiDirs: readonly string[];
  readonly shard?: Shard;
  /** `--update`: rewrite the response files of failing `record` cases. */
  readonly update: boolean;
  /** The replay cache: a directory, false for none (--no-cache), undefined for the default. */
  readonly cache?: string | false;
  /** --all-tracers: answer with every tracer and debug_* method of go-ethereum. */
  readonly allTracers?: boolean;
}

export interface RecordCommand {
  readonly kind: 'record';
  readonly fixture: string;
  readonly requests: string;
  readonly out: string;
  readonly filters: readonly string[];
  /** `--compact`: each response on one line, as the client sent it (the default is pretty-printed). */
  readonly compact: boolean;
  readonly cache?: string | false;
  readonly allTracers?: boolean;
}

export type GoldenCommand = CheckCommand | RecordCommand | { readonly kind: 'usage'; readonly message: string };

const usage = (message: string): GoldenCommand => ({ kind: 'usage', message });

/** `argv[0]` is `check` or `record`. A lone `--` ends the options (for paths starting with `-`). */
export function parseGoldenCommand(argv: readonly string[]): GoldenCommand {
  const command = argv[0] as 'check' | 'record';
  const positional: string[] = [];
  const filters: string[] = [];
  let semantic = false;
  let json = false;
  let allTracers = false;
  let out: string | undefined;
  let optionsEnded = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (optionsEnded || !arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      optionsEnded = true;
      continue;
    }
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (name === '--filter' || (name === '--out' && command === 'record')) {
      const v = value();
      if (v === undefined || v === '') return usage(`${command} ${name} needs a value`);
      if (name === '--filter') filters.push(v);
      else out = v;
    } else if (name === '--all-tracers' && inline === undefined) {
      allTracers = true;
    } else if ((name === '--semantic' || name === '--json') && command === 'check' && inline === undefined) {
      if (name === '--semantic') semantic = true;
      else json = true;
    } else {
      return usage(`${command}: unknown option: ${arg}`);
    }
  }
  if (command === 'check') {
    const [fixture, ...goldens] = positional;
    if (fixture === undefined || goldens.length === 0) return usage('check needs FIXTURE and at least one GOLDEN');
    return { kind: 'check', fixture, goldens, mode: semantic ? 'semantic' : 'bytes', json, filters, ...(allTracers ? { allTracers } : {}) };
  }
  if (positional.length !== 2) return usage('record needs FIXTURE and REQUESTS');
  if (out === undefined) return usage('record needs --out DIR');
  return { kind: 'record', fixture: positional[0]!, requests: positional[1]!, out, filters, ...(allTracers ? { allTracers } : {}) };
}
