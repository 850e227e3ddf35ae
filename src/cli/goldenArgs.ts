// argv of the `check` and `record` subcommands → typed options. Pure, like args.ts, which calls it.
import type { CompareMode } from '../compare/diff.ts';
import { didYouMean } from './suggest.ts';

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
  /** `--report FILE`, each: the HTML report (FILE.html), the Markdown summary (FILE.md) or the JSON report (FILE.json) is written there too. */
  readonly reports?: readonly string[];
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

const REPORTERS: readonly Reporter[] = ['text', 'json', 'junit', 'github'];

/** `I/N` with 1 <= I <= N; undefined when it is not. */
export function parseShard(text: string): Shard | undefined {
  const m = /^([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(text);
  if (m === null) return undefined;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index <= count ? { index, count } : undefined;
}

/** Options that take a value, and the commands that know them. */
const VALUED: Readonly<Record<string, readonly ('check' | 'record')[]>> = {
  '--filter': ['check', 'record'],
  '--out': ['record'],
  '--ignore': ['check'],
  '--abi': ['check'],
  '--reporter': ['check'],
  '--shard': ['check'],
  '--report': ['check'],
  '--cache': ['check', 'record'],
};
const FLAGS: Readonly<Record<string, readonly ('check' | 'record')[]>> = {
  '--all-tracers': ['check', 'record'],
  '--semantic': ['check'],
  '--json': ['check'],
  '--update': ['check'],
  '--no-cache': ['check', 'record'],
  '--compact': ['record'],
};

/** `argv[0]` is `check` or `record`. A lone `--` ends the options (for paths starting with `-`). */
export function parseGoldenCommand(argv: readonly string[]): GoldenCommand {
  const command = argv[0] as 'check' | 'record';
  const positional: string[] = [];
  const values: Record<string, string[]> = {};
  const flags = new Set<string>();
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
    if (VALUED[name]?.includes(command)) {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') return usage(`${command} ${name} needs a value`);
      (values[name] ??= []).push(v);
    } else if (FLAGS[name]?.includes(command) && inline === undefined) {
      flags.add(name);
    } else {
      const known = [...Object.keys(VALUED), ...Object.keys(FLAGS)].filter((o) => (VALUED[o] ?? FLAGS[o])!.includes(command));
      return usage(`${command}: unknown option: ${arg}${didYouMean(name, known)}`);
    }
  }
  const one = (name: string): string | undefined => values[name]?.at(-1);
  if (values['--cache'] !== undefined && flags.has('--no-cache')) return usage(`${command}: --cache and --no-cache exclude each other`);
  const cache = flags.has('--no-cache') ? { cache: false as const } : one('--cache') === undefined ? {} : { cache: one('--cache')! };
  const allTracers = flags.has('--all-tracers') ? { allTracers: true } : {};
  const filters = values['--filter'] ?? [];
  if (command === 'record') {
    if (positional.length !== 2) return usage('record needs FIXTURE and REQUESTS');
    const out = one('--out');
    if (out === undefined) return usage('record needs --out DIR');
    return { kind: 'record', fixture: positional[0]!, requests: positional[1]!, out, filters, compact: flags.has('--compact'), ...cache, ...allTracers };
  }
  const [fixture, ...goldens] = positional;
  if (fixture === undefined || goldens.length === 0) return usage('check needs FIXTURE and at least one GOLDEN');
  const reporterName = one('--reporter') ?? (flags.has('--json') ? 'json' : 'text');
  const reporter = REPORTERS.find((r) => r === reporterName);
  if (reporter === undefined) return usage(`check --reporter: ${reporterName} is not one of ${REPORTERS.join(', ')}`);
  if (flags.has('--json') && reporter !== 'json') return usage('check: --json is --reporter json; give one reporter');
  let shard: { shard?: Shard } = {};
  const shardText = one('--shard');
  if (shardText !== undefined) {
    const parsed = parseShard(shardText);
    if (parsed === undefined) return usage(`check --shard: ${shardText} is not I/N with 1 <= I <= N (e.g. 2/3)`);
    shard = { shard: parsed };
  }
  const ignores = values['--ignore'] ?? [];
  return {
    kind: 'check',
    fixture,
    goldens,
    mode: flags.has('--semantic') ? 'semantic' : 'bytes',
    reporter,
    filters,
    ignores,
    abiDirs: values['--abi'] ?? [],
    ...shard,
    update: flags.has('--update'),
    ...cache,
    ...allTracers,
    ...(values['--report'] === undefined ? {} : { reports: values['--report'] }),
  };
}
