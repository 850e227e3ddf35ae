// argv of `blocktrace diff A B [BLOCK|TX_HASH …]` → typed options. Pure, like args.ts, which calls it.
import { didYouMean } from './suggest.ts';

export interface DiffCommand {
  readonly kind: 'diff';
  /** The two fixtures. */
  readonly a: string;
  readonly b: string;
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

const KNOWN = ['--abi', '--json', '--any-chain', '--cache', '--no-cache', '--report'];
const TARGET = /^(0x[0-9a-fA-F]{64}|0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/;

/** `argv[0]` is `diff`. */
export function parseDiffCommand(argv: readonly string[]): DiffCommand | { readonly kind: 'usage'; readonly message: string } {
  const usage = (message: string) => ({ kind: 'usage' as const, message });
  const positional: string[] = [];
  const abiDirs: string[] = [];
  let json = false;
  let anyChain = false;
  let cache: string | false | undefined;
  let report: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--abi' || name === '--cache' || name === '--report') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return usage(`diff ${name} needs a value`);
      if (name === '--abi') abiDirs.push(value);
      else if (name === '--report') report = value;
      else cache = value;
    } else if (name === '--json' && inline === undefined) json = true;
    else if (name === '--any-chain' && inline === undefined) anyChain = true;
    else if (name === '--no-cache' && inline === undefined) cache = false;
    else if (arg.startsWith('-')) return usage(`diff: unknown option: ${arg}${didYouMean(name, KNOWN)}`);
    else positional.push(arg);
  }
  const [a, b, ...targets] = positional;
  if (a === undefined || b === undefined) return usage('diff needs two fixtures: blocktrace diff A B [BLOCK|TX_HASH ...]');
  const bad = targets.find((t) => !TARGET.test(t));
  if (bad !== undefined) return usage(`diff: ${bad} is neither a block number nor a transaction hash`);
  return { kind: 'diff', a, b, targets, abiDirs, json, anyChain, ...(cache === undefined ? {} : { cache }), ...(report === undefined ? {} : { report }) };
}
