// The options of upstream mode and of the `capture` subcommand, made of what argv.ts read. Pure, like
// args.ts, which calls it.
import { catchUsage, type Parsed, readArgv } from './argv.ts';
import { OPT } from './options.ts';
import { usage } from './values.ts';

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

/** The node at `url` with the --genesis, --upstream-timeout and --forward a command was given. */
export function upstreamSource(p: Parsed, url: string): UpstreamSource {
  const forward = p.all(OPT.forward);
  return { url, genesis: p.last(OPT.genesis), timeoutMs: p.last(OPT.upstreamTimeout), ...(forward.length > 0 ? { forward } : {}) };
}

/** `argv[0]` is `capture`. */
export function parseCaptureCommand(argv: readonly string[]): CaptureCommand | { readonly kind: 'usage'; readonly message: string } {
  return catchUsage(() => {
    const p = readArgv(['capture'], argv.slice(1), 'capture');
    const [stray] = p.positionals;
    if (stray !== undefined) p.unexpected(stray);
    const url = p.last(OPT.rpc) ?? usage('capture needs --rpc URL');
    const from = p.last(OPT.block) ?? usage('capture needs --block N');
    const out = p.last(OPT.outFile) ?? usage('capture needs --out FILE');
    const to = p.last(OPT.toBlock);
    if (from === 0n) usage('capture: block 0 is the genesis; capture from block 1 on');
    if (to !== undefined && to < from) usage(`capture: --to ${to} is before --block ${from}`);
    return { kind: 'capture', source: upstreamSource(p, url), from, to: to ?? from, out };
  });
}
