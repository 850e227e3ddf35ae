// argv of `blocktrace diff A B [BLOCK|TX_HASH …]` → typed options. Pure, like args.ts, which calls it.
// A side is a fixture or `--upstream URL` (a node), in the order given.
import { didYouMean } from './suggest.ts';
import { checkUpstreamUrl, parseUpstreamTimeout, type UpstreamSource } from './upstreamArgs.ts';

export interface DiffCommand {
  readonly kind: 'diff';
  /** The two sides as the report names them: a fixture's path or a node's URL. */
  readonly a: string;
  readonly b: string;
  /** Each side's node when it is `--upstream URL` rather than a fixture. */
  readonly upstream: readonly [UpstreamSource | undefined, UpstreamSource | undefined];
  /** Block numbers (decimal or 0x) and transaction hashes; none: every block both have. */
  readonly targets: readonly string[];
  readonly abiDirs: readonly string[];
  readonly json: boolean;
  /** Compare chains of different chain ids. */
  readonly anyChain: boolean;
  readonly cache?: string | false;
  /** `--report FILE.html`: the self-contained HTML report is written there too. */
  readonly report?: string;
}

const KNOWN = ['--abi', '--json', '--any-chain', '--cache', '--no-cache', '--report', '--upstream', '--upstream-timeout'];
const TARGET = /^(0x[0-9a-fA-F]{64}|0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/;

/** `argv[0]` is `diff`. */
export function parseDiffCommand(argv: readonly string[]): DiffCommand | { readonly kind: 'usage'; readonly message: string } {
  const usage = (message: string) => ({ kind: 'usage' as const, message });
  const targets: string[] = [];
  const abiDirs: string[] = [];
  let json = false;
  let anyChain = false;
  let cache: string | false | undefined;
  let report: string | undefined;
  let timeoutMs: number | undefined;
  // the sides in the order given: a fixture's path, or a node's URL
  const sides: { readonly name: string; readonly url?: string }[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--abi' || name === '--cache' || name === '--report' || name === '--upstream' || name === '--upstream-timeout') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return usage(`diff ${name} needs a value`);
      if (name === '--abi') abiDirs.push(value);
      else if (name === '--report') report = value;
      else if (name === '--upstream') {
        const problem = checkUpstreamUrl('--upstream', value);
        if (problem !== undefined) return usage(`diff ${problem}`);
        if (sides.length === 2) return usage('diff compares two sides: a third --upstream has no place');
        sides.push({ name: value, url: value });
      } else if (name === '--upstream-timeout') {
        const ms = parseUpstreamTimeout(value);
        if (typeof ms === 'string') return usage(`diff ${ms}`);
        timeoutMs = ms;
      } else cache = value;
    } else if (name === '--json' && inline === undefined) json = true;
    else if (name === '--any-chain' && inline === undefined) anyChain = true;
    else if (name === '--no-cache' && inline === undefined) cache = false;
    else if (arg.startsWith('-')) return usage(`diff: unknown option: ${arg}${didYouMean(name, KNOWN)}`);
    else if (sides.length < 2) sides.push({ name: arg });
    else targets.push(arg);
  }
  const [a, b] = sides;
  if (a === undefined || b === undefined) return usage('diff needs two sides, each a fixture or --upstream URL: blocktrace diff A B [BLOCK|TX_HASH ...]');
  if (timeoutMs !== undefined && a.url === undefined && b.url === undefined) return usage('diff --upstream-timeout needs --upstream URL');
  const bad = targets.find((t) => !TARGET.test(t));
  if (bad !== undefined) return usage(`diff: ${bad} is neither a block number nor a transaction hash`);
  const node = (side: typeof a): UpstreamSource | undefined => (side.url === undefined ? undefined : { url: side.url, genesis: undefined, timeoutMs });
  return {
    kind: 'diff', a: a.name, b: b.name, upstream: [node(a), node(b)], targets, abiDirs, json, anyChain,
    ...(cache === undefined ? {} : { cache }), ...(report === undefined ? {} : { report }),
  };
}
