// argv of upstream mode's options and of the `capture` subcommand → typed options. Pure, like
// args.ts, which calls it.
import { didYouMean } from './suggest.ts';
import { parseGoDuration } from '../rpc/goDuration.ts';

/** Where upstream mode and capture read blocks and state from. */
export interface UpstreamSource {
  readonly url: string;
  /** go-ethereum genesis.json with the fork schedule; else a well-known chain's, anvil_nodeInfo, or what the node answers. */
  readonly genesis: string | undefined;
  /** Deadline of each upstream call in ms; undefined: upstream/client.ts's default. */
  readonly timeoutMs: number | undefined;
  /** Methods forwarded beyond the default set (--forward METHOD, `anvil_*` for a namespace). */
  readonly forward?: readonly string[] | undefined;
}

export interface CaptureCommand {
  readonly kind: 'capture';
  readonly source: UpstreamSource;
  readonly from: bigint;
  readonly to: bigint;
  readonly out: string;
}

type Result = CaptureCommand | { readonly kind: 'usage'; readonly message: string };

const usage = (message: string): Result => ({ kind: 'usage', message });

/** The upstream URL: http(s) only. Returns a usage message when it is not one. */
export function checkUpstreamUrl(name: string, url: string): string | undefined {
  return /^https?:\/\/[^\s/]+/.test(url) ? undefined : `${name}: not an http(s) URL: ${url}`;
}

/** `--upstream-timeout` as a Go duration, in ms; a usage message when it is not one. */
export function parseUpstreamTimeout(value: string): number | string {
  let ms: number;
  try {
    ms = parseGoDuration(value);
  } catch (err) {
    return `--upstream-timeout: ${(err as Error).message} (e.g. 500ms, 10s, 1m)`;
  }
  return ms > 0 ? ms : `--upstream-timeout: must be positive: ${value}`;
}

function blockNumber(value: string): bigint | undefined {
  return /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value) ? BigInt(value) : undefined;
}

/** `argv[0]` is `capture`. */
export function parseCaptureCommand(argv: readonly string[]): Result {
  let url: string | undefined, genesis: string | undefined, timeoutMs: number | undefined, out: string | undefined;
  let from: bigint | undefined, to: bigint | undefined;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return usage(`capture ${name} needs a value`);
    switch (name) {
      case '--rpc': {
        const problem = checkUpstreamUrl('--rpc', value);
        if (problem !== undefined) return usage(problem);
        url = value;
        break;
      }
      case '--block':
      case '--to': {
        const n = blockNumber(value);
        if (n === undefined) return usage(`capture ${name}: not a block number: ${value}`);
        if (name === '--block') from = n;
        else to = n;
        break;
      }
      case '--out':
        out = value;
        break;
      case '--genesis':
        genesis = value;
        break;
      case '--upstream-timeout': {
        const ms = parseUpstreamTimeout(value);
        if (typeof ms === 'string') return usage(ms);
        timeoutMs = ms;
        break;
      }
      default:
        return usage(`capture: unexpected argument: ${arg}${name.startsWith('--') ? didYouMean(name, ['--rpc', '--block', '--to', '--out', '--genesis', '--upstream-timeout']) : ''}`);
    }
  }
  if (url === undefined) return usage('capture needs --rpc URL');
  if (from === undefined) return usage('capture needs --block N');
  if (out === undefined) return usage('capture needs --out FILE');
  if (from === 0n) return usage('capture: block 0 is the genesis; capture from block 1 on');
  if (to !== undefined && to < from) return usage(`capture: --to ${to} is before --block ${from}`);
  return { kind: 'capture', source: { url, genesis, timeoutMs }, from, to: to ?? from, out };
}
