// The options of the `check` and `record` subcommands, made of what argv.ts read. Pure, like args.ts, which calls it.
import type { CompareMode } from '../compare/diff.ts';
import { catchUsage, readArgv } from './argv.ts';
import { OPT } from './options.ts';
import { type Shard, usage } from './values.ts';

export type Reporter = 'text' | 'json' | 'junit' | 'github';

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

/** `argv[0]` is `check` or `record`. A lone `--` ends the options (for paths starting with `-`). */
export function parseGoldenCommand(argv: readonly string[]): GoldenCommand {
  return catchUsage(() => {
    const command = argv[0] as 'check' | 'record';
    const p = readArgv([command], argv.slice(1), command);
    const positional = p.positionals;
    const common = { filters: p.all(OPT.filter), ...p.cache(), ...(p.has(OPT.allTracers) ? { allTracers: true } : {}) };
    if (command === 'record') {
      const [fixture, requests, extra] = positional;
      if (extra !== undefined) p.unexpected(extra);
      if (requests === undefined) usage('record needs FIXTURE and REQUESTS');
      const out = p.last(OPT.outDir) ?? usage('record needs --out DIR');
      return { kind: 'record', fixture: fixture!, requests, out, compact: p.has(OPT.compact), ...common };
    }
    const [fixture, ...goldens] = positional;
    if (fixture === undefined || goldens.length === 0) usage('check needs FIXTURE and at least one GOLDEN');
    const json = p.has(OPT.json);
    const reporter = p.last(OPT.reporter) ?? (json ? 'json' : 'text');
    if (json && reporter !== 'json') usage('check: --json is --reporter json; give one reporter');
    const [shard, reports] = [p.last(OPT.shard), p.all(OPT.reports)];
    return {
      kind: 'check', fixture, goldens, mode: p.has(OPT.semantic) ? 'semantic' : 'bytes', reporter, ignores: p.all(OPT.ignore), abiDirs: p.all(OPT.abi),
      ...(shard === undefined ? {} : { shard }), update: p.has(OPT.update), ...common, ...(reports.length === 0 ? {} : { reports }),
    };
  });
}
