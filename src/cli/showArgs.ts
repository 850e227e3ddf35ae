// `blocktrace show FIXTURE TARGET [--abi DIR]...` / `blocktrace show --upstream URL TARGET ...`: the
// options made of what argv.ts read. Pure: a ShowCommand or a usage error.
import { catchUsage, type Parsed, readArgv } from './argv.ts';
import { OPT } from './options.ts';
import { upstreamSource, type UpstreamSource } from './upstreamArgs.ts';
import { usage } from './values.ts';

export interface ShowCommand {
  readonly kind: 'show';
  readonly fixture: string | undefined;
  readonly upstream: UpstreamSource | undefined;
  /** A transaction hash, or a block number (decimal or 0x) or tag. */
  readonly target: string;
  readonly abiDirs: readonly string[];
  /** The replay cache: a directory, false for none, undefined for the default. */
  readonly cache?: string | false | undefined;
}

/** How a command that reads show's arguments names itself and what it targets, in its usage messages. */
export interface ShowWording {
  readonly command: string;
  readonly target: string;
  readonly synopsis: string;
}

const SHOW: ShowWording = { command: 'show', target: 'a transaction hash or block', synopsis: 'blocktrace show FIXTURE TX|BLOCK [--abi DIR]...' };

/** The source (a fixture or --upstream URL), the target and --abi of show, and of debug (`wording`). */
export function showOf(p: Parsed, wording: ShowWording): Omit<ShowCommand, 'kind'> {
  const { command } = wording;
  const url = p.last(OPT.upstream);
  const [first, second, extra] = p.positionals;
  const stray = url === undefined ? extra : second;
  if (stray !== undefined) p.unexpected(stray);
  const target = url === undefined ? second : first;
  if (target === undefined) usage(url === undefined ? `${command} needs FIXTURE and ${wording.target} (${wording.synopsis})` : `${command} --upstream URL needs ${wording.target}`);
  if (url === undefined && (p.has(OPT.genesis) || p.has(OPT.upstreamTimeout))) usage('--genesis and --upstream-timeout need --upstream URL');
  return { fixture: url === undefined ? first : undefined, upstream: url === undefined ? undefined : upstreamSource(p, url), target, abiDirs: p.all(OPT.abi), ...p.cache() };
}

export function parseShowCommand(argv: readonly string[]): ShowCommand | { kind: 'usage'; message: string } {
  return catchUsage(() => ({ kind: 'show' as const, ...showOf(readArgv(['show'], argv.slice(1), 'show'), SHOW) }));
}
