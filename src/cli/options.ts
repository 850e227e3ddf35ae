// The table of every option of every command: its name, the name of its value in the synopsis (none
// for a flag), how the value is read, whether it repeats, which commands take it and what it
// excludes. argv.ts parses every command line with it; `--help`'s Usage block is checked against it
// (options.test.ts). An option means the same in every command that takes it.
import { forwardRefusal } from '../upstream/forward.ts';
import { blockNumber, count, duration, host, httpUrl, oneOf, origins, parseShard, type Shard, size, usage } from './values.ts';

/** The commands; `harness` is the face without a command word (--replay-file, --upstream). */
export type Command = 'serve' | 'harness' | 'check' | 'record' | 'capture' | 'show' | 'debug' | 'diff' | 'cache ls' | 'cache clear';

export interface OptionSpec<T = unknown> {
  readonly name: `--${string}`;
  /** The value's name in the synopsis (`--port PORT`); undefined: a flag, which takes none. */
  readonly meta: string | undefined;
  /** The value, read from its text; throws Usage when it is not one. */
  readonly read: (value: string) => T;
  /** Given more than once, every value counts (otherwise the last does). */
  readonly repeatable: boolean;
  readonly commands: readonly Command[];
  /** Options it cannot be given with. */
  readonly excludes: readonly `--${string}`[];
}

interface More {
  readonly repeatable?: boolean;
  readonly excludes?: readonly `--${string}`[];
}

const valued = <T>(name: `--${string}`, meta: string, commands: readonly Command[], read: (value: string) => T, more: More = {}): OptionSpec<T> => ({
  name, meta, read, commands, repeatable: more.repeatable ?? false, excludes: more.excludes ?? [],
});
const text = (name: `--${string}`, meta: string, commands: readonly Command[], more: More = {}): OptionSpec<string> => valued(name, meta, commands, (v) => v, more);
const flag = (name: `--${string}`, commands: readonly Command[], more: More = {}): OptionSpec<true> => ({
  name, meta: undefined, read: () => true, commands, repeatable: false, excludes: more.excludes ?? [],
});

const MAIN: readonly Command[] = ['serve', 'harness'];
const REPEATS = { repeatable: true } as const;
const stepNumber = (name: string) => (value: string): number => (/^\d+$/.test(value) ? Number(value) : usage(`${name} needs a step number (from 0)`));

export const OPT = {
  replayFile: text('--replay-file', 'FIXTURE', ['harness']),
  upstream: valued('--upstream', 'URL', [...MAIN, 'show', 'debug', 'diff'], httpUrl('--upstream'), REPEATS),
  host: valued('--host', 'HOST', ['serve'], host),
  port: valued('--port', 'PORT', ['serve'], count('--port', 65535, 'a port number')),
  maxBody: valued('--max-body', 'SIZE', ['serve'], size('--max-body', '1048576, 512KiB, 5MiB')),
  maxBatch: valued('--max-batch', 'N', MAIN, count('--max-batch', 1_000_000, 'a count')),
  maxResponse: valued('--max-response', 'SIZE', MAIN, size('--max-response', '0, 1048576, 25MB', true)),
  traceTimeout: valued('--trace-timeout', 'DURATION', MAIN, duration('--trace-timeout')),
  cors: valued('--cors', 'ORIGIN[,ORIGIN...]', ['serve'], origins),
  warm: flag('--warm', ['serve']),
  noUi: flag('--no-ui', ['serve']),
  abi: text('--abi', 'DIR', ['serve', 'check', 'show', 'debug', 'diff'], REPEATS),
  cache: text('--cache', 'DIR', [...MAIN, 'check', 'record', 'show', 'debug', 'diff', 'cache ls', 'cache clear'], { excludes: ['--no-cache'] }),
  noCache: flag('--no-cache', [...MAIN, 'check', 'record', 'show', 'debug', 'diff'], { excludes: ['--cache'] }),
  cacheMax: valued('--cache-max', 'SIZE', MAIN, size('--cache-max', '512MiB, 1GiB')),
  maxMemory: valued('--max-memory', 'SIZE', MAIN, size('--max-memory', '4GB, 512MiB')),
  allTracers: flag('--all-tracers', [...MAIN, 'check', 'record']),
  shutdownTimeout: valued('--shutdown-timeout', 'DURATION', ['serve'], duration('--shutdown-timeout')),
  log: valued('--log', 'json', ['serve'], oneOf(['json'], (v) => `--log: the only format is json, not ${v}`)),
  forward: valued('--forward', 'METHOD', MAIN, (v) => { const problem = forwardRefusal(v); return problem === undefined ? v : usage(problem); }, REPEATS),
  genesis: text('--genesis', 'FILE', [...MAIN, 'show', 'debug', 'capture']),
  upstreamTimeout: valued('--upstream-timeout', 'DURATION', [...MAIN, 'show', 'debug', 'capture', 'diff'], duration('--upstream-timeout', true)),
  // check and record
  semantic: flag('--semantic', ['check']),
  ignore: text('--ignore', 'NAME|$.PATH', ['check'], REPEATS),
  reporter: valued('--reporter', 'text|json|junit|github', ['check'], oneOf(['text', 'json', 'junit', 'github'], (v) => `check --reporter: ${v} is not one of text, json, junit, github`)),
  json: flag('--json', ['check', 'debug', 'diff']),
  update: flag('--update', ['check']),
  shard: valued('--shard', 'I/N', ['check'], (v): Shard => parseShard(v) ?? usage(`check --shard: ${v} is not I/N with 1 <= I <= N (e.g. 2/3)`)),
  filter: text('--filter', 'METHOD|NAME', ['check', 'record'], REPEATS),
  reports: text('--report', 'FILE.html|FILE.md|FILE.json', ['check'], REPEATS),
  outDir: text('--out', 'DIR', ['record']),
  compact: flag('--compact', ['record']),
  // capture
  rpc: valued('--rpc', 'URL', ['capture'], httpUrl('--rpc')),
  block: valued('--block', 'N', ['capture'], blockNumber('capture --block')),
  toBlock: valued('--to', 'M', ['capture'], blockNumber('capture --to')),
  outFile: text('--out', 'FILE', ['capture']),
  // debug
  fromStep: valued('--from', 'N', ['debug'], stepNumber('--from')),
  toStep: valued('--to', 'M', ['debug'], stepNumber('--to')),
  onlyLines: flag('--only-lines', ['debug']),
  values: flag('--values', ['debug']),
  // diff
  anyChain: flag('--any-chain', ['diff']),
  report: text('--report', 'FILE.html', ['diff']),
  // cache
  all: flag('--all', ['cache ls']),
} as const;

export const OPTIONS: readonly OptionSpec[] = Object.values(OPT);

/** The options some of `commands` take. */
export const optionsOf = (commands: readonly Command[]): readonly OptionSpec[] => OPTIONS.filter((o) => o.commands.some((c) => commands.includes(c)));
