// `blocktrace show FIXTURE TARGET [--abi DIR]...` / `blocktrace show --upstream URL TARGET ...`.
// Pure: argv → ShowCommand or a usage message.
import { didYouMean } from './suggest.ts';
import { checkUpstreamUrl, parseUpstreamTimeout, type UpstreamSource } from './upstreamArgs.ts';

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

export function parseShowCommand(argv: readonly string[], wording: ShowWording = SHOW): ShowCommand | { kind: 'usage'; message: string } {
  const { command } = wording;
  const positional: string[] = [];
  const abiDirs: string[] = [];
  let upstream: string | undefined;
  let genesis: string | undefined;
  let timeout: string | undefined;
  let cache: string | false | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? (eq === -1 ? arg : arg.slice(0, eq)) : undefined;
    if (name === undefined) {
      if (arg.startsWith('-') && arg.length > 1 && !/^-?\d/.test(arg)) return { kind: 'usage', message: `unknown option for ${command}: ${arg}` };
      positional.push(arg);
      continue;
    }
    if (name === '--no-cache' && eq === -1) {
      cache = false;
      continue;
    }
    const known = ['--abi', '--upstream', '--genesis', '--upstream-timeout', '--cache'];
    if (!known.includes(name)) return { kind: 'usage', message: `unknown option for ${command}: ${name}${didYouMean(name, known)}` };
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') return { kind: 'usage', message: `${name} needs a value` };
    if (name === '--abi') abiDirs.push(value);
    else if (name === '--upstream') upstream = value;
    else if (name === '--genesis') genesis = value;
    else if (name === '--cache') cache = value;
    else timeout = value;
  }
  const want = upstream === undefined ? 2 : 1;
  if (positional.length !== want) {
    return { kind: 'usage', message: upstream === undefined ? `${command} needs FIXTURE and ${wording.target} (${wording.synopsis})` : `${command} --upstream URL needs ${wording.target}` };
  }
  let source: UpstreamSource | undefined;
  if (upstream !== undefined) {
    const problem = checkUpstreamUrl('--upstream', upstream);
    if (problem !== undefined) return { kind: 'usage', message: problem };
    const timeoutMs = timeout === undefined ? undefined : parseUpstreamTimeout(timeout);
    if (typeof timeoutMs === 'string') return { kind: 'usage', message: timeoutMs };
    source = { url: upstream, genesis, timeoutMs };
  } else if (genesis !== undefined || timeout !== undefined) {
    return { kind: 'usage', message: '--genesis and --upstream-timeout need --upstream URL' };
  }
  return { kind: 'show', fixture: upstream === undefined ? positional[0] : undefined, upstream: source, target: positional[want - 1]!, abiDirs, ...(cache !== undefined ? { cache } : {}) };
}
