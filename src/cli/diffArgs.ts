// `blocktrace diff A B [BLOCK|TX_HASH …]`: the options made of what argv.ts read. Pure, like args.ts,
// which calls it. A side is a fixture or `--upstream URL` (a node), in the order given.
import { catchUsage, readArgv } from './argv.ts';
import { OPT } from './options.ts';
import type { UpstreamSource } from './upstreamArgs.ts';
import { usage } from './values.ts';

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

const TARGET = /^(0x[0-9a-fA-F]{64}|0x[0-9a-fA-F]{1,16}|[0-9]{1,20})$/;

/** `argv[0]` is `diff`. */
export function parseDiffCommand(argv: readonly string[]): DiffCommand | { readonly kind: 'usage'; readonly message: string } {
  return catchUsage(() => {
    const p = readArgv(['diff'], argv.slice(1), 'diff');
    // the sides in the order given, a fixture's path or a node's URL; the positionals after them are targets
    const sides: { readonly name: string; readonly url?: string }[] = [];
    const targets: string[] = [];
    for (const item of p.items) {
      if ('positional' in item) {
        if (sides.length < 2) sides.push({ name: item.positional });
        else targets.push(item.positional);
      } else if (item.spec === OPT.upstream) {
        if (sides.length === 2) usage('diff compares two sides: a third --upstream has no place');
        sides.push({ name: item.value as string, url: item.value as string });
      }
    }
    const [a, b] = sides;
    if (a === undefined || b === undefined) usage('diff needs two sides, each a fixture or --upstream URL: blocktrace diff A B [BLOCK|TX_HASH ...]');
    const timeoutMs = p.last(OPT.upstreamTimeout);
    if (timeoutMs !== undefined && a.url === undefined && b.url === undefined) usage('diff --upstream-timeout needs --upstream URL');
    const bad = targets.find((t) => !TARGET.test(t));
    if (bad !== undefined) usage(`diff: ${bad} is neither a block number nor a transaction hash`);
    const node = (side: typeof a): UpstreamSource | undefined => (side.url === undefined ? undefined : { url: side.url, genesis: undefined, timeoutMs });
    const report = p.last(OPT.report);
    return {
      kind: 'diff', a: a.name, b: b.name, upstream: [node(a), node(b)], targets, abiDirs: p.all(OPT.abi), json: p.has(OPT.json), anyChain: p.has(OPT.anyChain),
      ...p.cache(), ...(report === undefined ? {} : { report }),
    };
  });
}
