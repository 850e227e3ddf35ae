// argv → typed options. Pure: no I/O, no exit; cli.ts acts on the result. Every command's line is
// read by argv.ts with the table of options.ts; the builders here and in *Args.ts make each
// command's options of what it read.
import { parseGoldenCommand, type CheckCommand, type RecordCommand } from './goldenArgs.ts';
import { catchUsage, type Parsed, readArgv, unknownCommand } from './argv.ts';
import { OPT, type OptionSpec } from './options.ts';
import { nearest } from './suggest.ts';
import { parseShowCommand, type ShowCommand } from './showArgs.ts';
import { parseDebugCommand, type DebugCommand } from './debugArgs.ts';
import { parseDiffCommand, type DiffCommand } from './diffArgs.ts';
import { parseCaptureCommand, upstreamSource, type CaptureCommand, type UpstreamSource } from './upstreamArgs.ts';
import { usage } from './values.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8545;
export const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 100;

export const HELP_TEXT = `blocktrace — replays an Ethereum fixture chain and answers block-tracing JSON-RPC
like go-ethereum (debug_*) and reth/anvil (trace_*).

Usage:
  blocktrace serve [FIXTURE] [--host HOST] [--port PORT] [--max-body SIZE] [--max-batch N]
                  [--max-response SIZE] [--trace-timeout DURATION] [--cors ORIGIN[,ORIGIN...]] [--warm]
                  [--abi DIR]... [--no-ui] [--cache DIR | --no-cache] [--all-tracers] [--max-memory SIZE]
                  [--cache-max SIZE] [--shutdown-timeout DURATION] [--log json]
  blocktrace --replay-file FIXTURE [--max-batch N] [--max-response SIZE] [--trace-timeout DURATION]
                          [--cache DIR | --no-cache] [--cache-max SIZE] [--all-tracers] [--max-memory SIZE]
                          [REQUEST...] [-- REQUEST...]
  blocktrace check FIXTURE GOLDEN... [--semantic] [--ignore NAME|$.PATH]... [--abi DIR]...
                  [--reporter text|json|junit|github | --json] [--update] [--shard I/N]
                  [--filter METHOD|NAME]... [--cache DIR | --no-cache] [--all-tracers]
                  [--report FILE.html|FILE.md|FILE.json]...
  blocktrace record FIXTURE REQUESTS --out DIR [--compact] [--filter METHOD|NAME]...
                   [--cache DIR | --no-cache] [--all-tracers]
  blocktrace serve --upstream URL [--genesis FILE] [--upstream-timeout DURATION] [--forward METHOD]... [serve options]
  blocktrace --upstream URL [--genesis FILE] [--upstream-timeout DURATION] [--forward METHOD]... [REQUEST...]
  blocktrace capture --rpc URL --block N [--to M] --out FILE [--genesis FILE] [--upstream-timeout DURATION]
  blocktrace show FIXTURE TX_HASH|BLOCK_HASH|BLOCK [--abi DIR]... [--cache DIR | --no-cache]
  blocktrace show --upstream URL TX_HASH|BLOCK [--abi DIR]... [--genesis FILE] [--upstream-timeout DURATION]
  blocktrace debug FIXTURE|--upstream URL TX_HASH [--abi DIR]... [--json [--from N] [--to M] [--only-lines] [--values]]
                  [--cache DIR | --no-cache] [--genesis FILE] [--upstream-timeout DURATION]
  blocktrace diff A B [BLOCK|TX_HASH]... [--abi DIR]... [--json] [--any-chain] [--report FILE.html]
                 [--cache DIR | --no-cache] [--upstream-timeout DURATION]   (A, B: a FIXTURE or --upstream URL)
  blocktrace cache ls [--all] [--cache DIR]
  blocktrace cache clear [FIXTURE] [--cache DIR]
  blocktrace --help | --version

Options go anywhere on the line, before or after FIXTURE and the requests. A REQUEST argument is a
JSON text (it starts with { or [); everything after a lone -- is a request, whatever it looks like.
An unknown option is a usage error (exit 2). An option means the same in every command that takes it,
and --NAME=VALUE is --NAME VALUE.

serve
  Loads FIXTURE (default: builtin:prague-devnet) and serves JSON-RPC 2.0
  on POST / (Content-Type: application/json). JSON-RPC errors travel with HTTP 200. GET / is a
  trace viewer in the browser (blocks, transactions, call trees, state changes). The URL and a
  chain summary go to stderr. GET /health: 200 ready, 503 loading or draining. SIGINT/SIGTERM
  drain the server: it stops accepting, closes WebSockets (1001), answers the requests in flight,
  then exits 0 (a second signal stops it at once; during the load one stops it, 130/143).
    --host HOST        address to bind (default ${DEFAULT_HOST}; use 0.0.0.0 deliberately)
    --port PORT        TCP port, 0 for any free port (default ${DEFAULT_PORT})
    --max-body SIZE    largest request body: bytes or with a unit, e.g. 512KiB, 5MiB (default 5MiB)
    --max-batch N      most requests in one batch, 0 for no limit (default ${DEFAULT_MAX_BATCH})
    --max-response SIZE  largest result, and most a batch's results may add up to; past it the
                       answer is error -32003 "response too large"; 0 for no limit (default 25MB)
    --trace-timeout DURATION  deadline of a trace whose request sets no "timeout", as Go writes
                       durations (300ms, 5s, 1m30s); past it -32000 "execution timeout"; 0 for
                       none (default 5s)
    --cors ORIGIN[,ORIGIN...]  browser origins allowed to call (or *); none by default
    --warm             after loading, trace every block in the background (requests are served
                       meanwhile), so that first requests find their recording ready
    --abi DIR          artifacts the trace viewer decodes calls, events and errors with (as for show)
    --cache DIR        where replay snapshots are kept (default $XDG_CACHE_HOME/blocktrace, else
                       ~/.cache/blocktrace); a second start of the same fixture reads its snapshot
                       instead of replaying (also for --replay-file and show)
    --no-cache         neither read nor write a snapshot
    --cache-max SIZE   the cache's size cap; past it the least recently used snapshots are removed
                       after a new one is written (default 1GiB)
    --max-memory SIZE  the resident memory the fixture's load may reach (also for --replay-file);
                       past it the load stops with one line and exit 2, never by the system's
                       out-of-memory killer (default 90% of the machine's, or its cgroup's, memory)
    --no-ui            no trace viewer: GET / answers 405 as before (POST / is the same either way)
    --shutdown-timeout DURATION  how long a SIGTERM waits for the requests in flight before it
                       cuts them (Go durations, as --trace-timeout; 0: at once; default 10s)
    --log json         one JSON object a line on stderr per HTTP request or WebSocket frame: time,
                       method (JSON-RPC), http, path, status, ms
    --all-tracers      every tracer and debug_* method go-ethereum has, not only callTracer and
                       prestateTracer (also for --replay-file, --upstream, check and record); without
                       it the default tracer and flatCallTracer are refused, as the spec says

--replay-file FIXTURE [REQUEST...]   (the harness)
  Loads FIXTURE, then answers each REQUEST argument, or with none each line of stdin, in order:
  exactly one line on stdout per request, holding the bytes the server would send for that body
  (without its trailing newline). A request that gets no answer (a notification, a batch of
  notifications) prints an empty line, so that line i always answers request i. Blank lines and
  blank arguments are not requests and are skipped. Nothing else is written to stdout; logs go to
  stderr.

check FIXTURE GOLDEN...   (for CI: are the recorded answers still ours? docs/ci.md)
  Replays every recorded exchange of each GOLDEN (a file, or a directory walked recursively) and
  compares our answer with the recorded one, byte for byte. Layouts: execution-apis .io files
  (">>" request, "<<" response, "//" comment lines), NAME.request.json + NAME.response.json pairs
  (read token for token: whitespace between tokens is free; one final newline is ignored; an empty
  file means no answer), and JSON arrays of {"request", "response"} objects (Erigon rpc-tests;
  recordings without result or error are skipped). Each failure lists every difference, grouped
  under where it is (the transaction, the frame's path through the call tree, the account, the
  trace, the log), with both values whole (long hex as the 32-byte words that differ); the last
  stdout line is "N passed, M failed". Progress goes to stderr when it is a terminal.
    --semantic         compare parsed values, object keys in any order (pretty-printed or
                       key-sorted recordings; needed for Erigon's files)
    --ignore RULE      drop a member from both sides before comparing (repeatable): a NAME
                       ([A-Za-z0-9_]+) at any depth, or one JSON path ($.result[*].blockHash;
                       [*] and .* match any index or key)
    --abi DIR          Foundry/Hardhat artifacts or ABI files: the report names contracts and
                       decodes calls, results, events and reverts (repeatable)
    --reporter R       text (the default), json (= --json: every case, every difference), junit
                       (JUnit XML, a testsuite per GOLDEN), github (an ::error annotation per
                       failing case, on the line of its first difference, then the text report)
    --update           rewrite the response files of failing cases that record wrote (pretty or
                       compact, as each file is); .io files and arrays are never rewritten. Exit 0
    --shard I/N        check the Ith of N deterministic slices of the cases (by name)
    --report FILE.html also write one self-contained HTML page (a CI artifact): each failing case's
                       call trees, recorded and ours side by side, what differs highlighted;
                       FILE.md: a Markdown summary (a job summary); FILE.json: the JSON report
                       (repeatable: one of each)
    --filter X         keep cases whose method is X or whose name contains X (repeatable)
    --cache DIR, --no-cache   as for serve

record FIXTURE REQUESTS --out DIR
  Answers each request and writes DIR/NAME.request.json (the request as given) and
  DIR/NAME.response.json (our answer pretty-printed, one member a line, its key order, escapes and
  number spellings kept; empty for no answer). REQUESTS is a file of request lines, each case named
  from its request (0x3.debug_traceBlockByNumber.callTracer, 0x3.trace_block, ...), or a golden in
  any layout above (its requests are answered again, under their names). Never overwrites a file
  (check --update does). A record then a check on the same fixture passes.
    --compact          write each response on one line, the bytes as sent
    --filter X         as for check
    --cache DIR, --no-cache   as for serve

--upstream URL   (upstream mode: a sidecar of a live node, e.g. anvil)
  Blocks come from the node at URL (eth_getBlockByNumber/ByHash with transactions); each block is
  replayed from the node's state at its parent, read lazily (eth_getProof, eth_getCode,
  eth_getStorageAt), each account and slot fetched once. The tracing methods are answered here;
  eth_*, net_*, web3_*, txpool_*, ots_* and debug_get* go to the node unchanged (writes such as
  eth_sendRawTransaction and eth_sendTransaction included); other methods only with --forward. With serve it serves; without, it is the
  harness face (requests as for --replay-file). Upstream failures, timeouts and missing history
  come back as JSON-RPC errors (-32000) naming the upstream.
    --genesis FILE     the chain's go-ethereum genesis.json (its fork schedule); not needed for
                       mainnet, sepolia, holesky, hoodi, anvil (it reports its hardfork), Hardhat
                       or a node with eth_config (read off its headers, eth_config and eth_call
                       probes, every fork at genesis; the summary line says what it found)
    --upstream-timeout DURATION  deadline of each call to the node (default 10s)
    --forward METHOD   also pass METHOD (or a namespace: anvil_*) to the node (repeatable); never
                       admin_*, personal_*, miner_* or debug_set*: the node's control methods stay closed

capture --rpc URL --block N [--to M] --out FILE
  Writes a self-contained fixture of blocks N..M (default M = N) from the node at URL: the blocks,
  the pre-state at block N-1 of every account and slot they read, what changed in those between
  two of the blocks outside a transaction (anvil_setBalance, hardhat_setStorageAt and the like),
  the ancestor hashes BLOCKHASH reads, and the fork schedule. It is replayed (and checked) before
  it is written; a fixture file is never overwritten. --genesis and --upstream-timeout as above.

cache ls [--all] | cache clear [FIXTURE] [--cache DIR]
  Lists the replay snapshots, one line per fixture (their number, size and last use; --all: each
  file, with its fixture), or removes them all (or FIXTURE's).

show FIXTURE TX_HASH|BLOCK_HASH|BLOCK
  Prints a transaction's call tree (or every transaction of a block, with its status and gas) in
  cast run's layout: one line per call with gas used (callTracer's figures: the top frame is the
  transaction's gas, intrinsic gas included), contract, decoded function and value; events
  under the call that emitted them; the decoded return value or revert reason. Contracts are named
  by matching their code to the artifacts of --abi; calls, events and errors are decoded from
  those ABIs and a built-in table (ERC-20/721/1155, WETH, Multicall3). Colour on a terminal, plain
  when piped or with NO_COLOR set.
    --abi DIR          Foundry out/, Hardhat artifacts/, or plain ABI .json files (repeatable)

debug FIXTURE|--upstream URL TX_HASH
  Steps through a transaction at the source line (docs/debugger.md): each opcode placed in the
  Solidity source its contract was compiled from, with the call stack of external and internal
  functions. Source maps and sources come from --abi: Foundry out/ (with out/build-info/ or the
  project beside out/), Hardhat artifacts/ with build-info/, solc standard-JSON input and output.
  A contract no artifact matches stays at opcode level, with one line saying why. Opens a
  full-screen terminal UI (j/k step, c/C next/previous call, g/G first/last step, q quits).
    --abi DIR          where the build outputs are (repeatable)
    --json             print the steps as one JSON document instead: {"steps": [...]}, one object
                       per opcode (step, pc, op, depth, gas, gasCost, address, source, functions)
    --from N, --to M   only steps N to M (numbers from 0, as everywhere)
    --only-lines       only the first step of each source line
    --values           each step also gives "frames": its call stack with each frame's arguments
                       (from calldata and the ABI; an internal function's from the stack it entered with)

diff A B [BLOCK|TX_HASH]...   (A, B: a FIXTURE or --upstream URL; docs/cli.md)
  Pairs the transactions of two chains that ran the same ones (by sender and nonce, else by
  position) and prints, for each pair that differs, where the call trees part, the logs and the
  state that differ, decoded with --abi, then a table of gas when any differs. With no BLOCK or
  TX_HASH every block either chain has is compared. Exit 1 when something differs.
    --abi DIR          artifacts that decode the report, as for check (repeatable)
    --json             the whole comparison as one JSON document (its schema's version first)
    --any-chain        compare chains of different chain ids
    --report FILE.html also write one self-contained HTML page of the comparison
    --cache DIR, --no-cache   as for serve; --upstream-timeout as for --upstream

FIXTURE is a blocktrace/anvil fixture.json, a blocktrace capture, a go-ethereum tracer test JSON, a
directory with genesis.json and chain.rlp (execution-apis), or an ethereum/tests blockchain-test file
(FILE#NAME picks one test of a file holding several). builtin:prague-devnet and builtin:cancun-devnet
name the example chains that ship inside blocktrace (a file of that name is ./builtin:NAME).

Exit status: 0 success (also when answers are JSON-RPC errors, and check --update after rewriting);
1 check found a difference or its --filter kept nothing; 2 the fixture, a golden, an --abi
directory or a request file cannot be read (named on stderr), an --ignore rule is malformed,
--update finds no golden it may rewrite or one it cannot write, record would overwrite a file, or
the command line is wrong.

Methods: the list below is the dispatcher's own table (docs/methods.md says where each answer's
bytes come from); --all-tracers adds go-ethereum's other tracers and debug_* methods. The write
methods at the end answer an error on a fixture and go to the node in upstream mode.
`;

export type CliOptions =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | ({
      readonly kind: 'replay';
      readonly fixture: string;
      readonly requests: readonly string[] | undefined;
      readonly maxBatch: number;
    } & DispatchLimits)
  | ({
      readonly kind: 'serve';
      readonly fixture: string | undefined;
      readonly host: string;
      readonly port: number;
      readonly maxBody: number;
      readonly maxBatch: number;
      /** Origins answered with Access-Control-Allow-Origin; undefined: CORS off. */
      readonly cors?: readonly string[] | undefined;
      /** Serve from a live node instead of a fixture. */
      readonly upstream?: UpstreamSource | undefined;
      /** Record every block in the background after load. */
      readonly warm?: boolean;
      /** false: no trace viewer on GET / (--no-ui); it is served otherwise. */
      readonly ui?: boolean;
      /** Artifacts the viewer decodes with (--abi, repeatable). */
      readonly abiDirs?: readonly string[];
      /** --shutdown-timeout: how long SIGTERM waits for the requests in flight, in ms; undefined: the default (10 s). */
      readonly shutdownTimeoutMs?: number;
      /** --log json: a JSON line per HTTP request or WebSocket frame on stderr. */
      readonly log?: 'json';
    } & DispatchLimits)
  | ({
      readonly kind: 'upstream';
      readonly source: UpstreamSource;
      readonly requests: readonly string[] | undefined;
      readonly maxBatch: number;
    } & DispatchLimits)
  | CheckCommand
  | RecordCommand
  | CaptureCommand
  | ShowCommand
  | DebugCommand
  | DiffCommand
  | { readonly kind: 'cache'; readonly action: 'ls' | 'clear'; readonly dir: string | undefined; readonly fixture?: string; readonly all?: boolean }
  | { readonly kind: 'usage'; readonly message: string };

/** Limits of the dispatcher, for both faces; undefined: the default of rpc/context.ts. */
export interface DispatchLimits {
  /** The replay cache: a directory, false for none (--no-cache), undefined for the default one. */
  readonly cache?: string | false | undefined;
  /** Bytes; 0 for no limit. */
  readonly maxResponse?: number | undefined;
  /** Milliseconds; 0 for no deadline. */
  readonly traceTimeoutMs?: number | undefined;
  /** --all-tracers: every tracer and debug_* method of go-ethereum, not only the spec's. */
  readonly allTracers?: boolean;
  /** --cache-max: the replay cache's size cap in bytes; undefined for the default (1 GiB). */
  readonly cacheMax?: number;
  /** --max-memory: the resident bytes a load may reach; undefined for 90% of the machine's (cli/memoryGuard.ts). */
  readonly maxMemory?: number;
}

export function parseArgs(argv: readonly string[]): CliOptions {
  const end = argv.indexOf('--');
  const options = end === -1 ? argv : argv.slice(0, end);
  if (options.includes('--help') || options.includes('-h') || argv[0] === 'help') return { kind: 'help' };
  if (options.includes('--version')) return { kind: 'version' };
  switch (argv[0]) {
    case 'check':
    case 'record':
      return parseGoldenCommand(argv);
    case 'capture':
      return parseCaptureCommand(argv);
    case 'show':
      return parseShowCommand(argv);
    case 'debug':
      return parseDebugCommand(argv);
    case 'diff':
      return parseDiffCommand(argv);
    case 'cache':
      return catchUsage(() => cacheCommand(argv));
    default:
      return catchUsage(() => mainFace(argv));
  }
}

/** The commands, for "did you mean" (serve is the only one the main face reads itself). */
const COMMANDS = ['serve', 'check', 'record', 'capture', 'show', 'debug', 'diff', 'cache', 'help'];

/** A request argument is a JSON text: an object or a batch (after `--`, anything is a request). */
const isRequestText = (arg: string): boolean => /^\s*[{[]/.test(arg);

const NOTHING_TO_DO = 'nothing to do: give "serve [FIXTURE]" or "--replay-file FIXTURE"';

/** `serve`, the harness (`--replay-file`) and upstream mode: one line of options, told apart by the word serve and by --replay-file or --upstream. */
function mainFace(argv: readonly string[]): CliOptions {
  if (argv.length === 0) usage(NOTHING_TO_DO);
  const p = readArgv(['serve', 'harness'], argv, (first) => (first === 'serve' ? 'serve' : ''));
  const serve = p.label === 'serve';
  const positional: string[] = [];
  const requests: string[] = [];
  for (const item of p.items) {
    if (!('positional' in item)) continue;
    if (item.afterTerminator || isRequestText(item.positional) || item.positional.trim() === '') requests.push(item.positional);
    else positional.push(item.positional);
  }
  if (serve) positional.shift();
  const [cacheMax, maxMemory] = [p.last(OPT.cacheMax), p.last(OPT.maxMemory)];
  const limits = {
    maxBatch: p.last(OPT.maxBatch) ?? DEFAULT_MAX_BATCH, maxResponse: p.last(OPT.maxResponse), traceTimeoutMs: p.last(OPT.traceTimeout),
    ...p.cache(), ...(p.has(OPT.allTracers) ? { allTracers: true } : {}),
    ...(cacheMax !== undefined ? { cacheMax } : {}), ...(maxMemory !== undefined ? { maxMemory } : {}),
  };
  const url = p.last(OPT.upstream);
  if (url === undefined && [OPT.genesis, OPT.upstreamTimeout, OPT.forward].some((o) => p.has(o))) usage('--genesis, --upstream-timeout and --forward need --upstream URL');
  const upstream = url === undefined ? undefined : upstreamSource(p, url);
  const replayFile = p.last(OPT.replayFile);
  if (!serve) {
    const serveOption = p.items.find((i): i is { spec: OptionSpec; value: unknown } => 'spec' in i && !i.spec.commands.includes('harness'))?.spec.name;
    if (serveOption !== undefined) usage(`${serveOption} is one of the serve options (blocktrace serve [FIXTURE] ${serveOption} ...)`);
    const [word] = positional;
    if (word !== undefined) {
      if (word === argv[0] && nearest(word, COMMANDS) !== undefined) unknownCommand('', word, COMMANDS);
      p.unexpected(word, ' (a request is a JSON text, or comes after --)');
    }
    const given = requests.length === 0 ? undefined : requests;
    if (replayFile !== undefined && upstream !== undefined) usage('--replay-file and --upstream cannot be combined');
    if (replayFile !== undefined) return { kind: 'replay', fixture: replayFile, requests: given, ...limits };
    if (upstream !== undefined) return { kind: 'upstream', source: upstream, requests: given, ...limits };
    return usage(NOTHING_TO_DO);
  }
  if (replayFile !== undefined) usage('--replay-file cannot be combined with serve');
  if (requests.length > 0) usage('serve takes no requests; send them over HTTP');
  const [fixture, extra] = positional;
  if (extra !== undefined) p.unexpected(extra);
  if (upstream !== undefined && fixture !== undefined) usage('serve takes a FIXTURE or --upstream URL, not both');
  const [warm, noUi, abiDirs, shutdownTimeoutMs, log] = [p.has(OPT.warm), p.has(OPT.noUi), p.all(OPT.abi), p.last(OPT.shutdownTimeout), p.last(OPT.log)];
  if (warm && upstream !== undefined) usage('--warm traces a fixture; it does not apply to --upstream');
  if (noUi && abiDirs.length > 0) usage('--abi is for the viewer; it does not go with --no-ui');
  return {
    kind: 'serve', fixture, host: p.last(OPT.host) ?? DEFAULT_HOST, port: p.last(OPT.port) ?? DEFAULT_PORT, maxBody: p.last(OPT.maxBody) ?? DEFAULT_MAX_BODY,
    cors: p.last(OPT.cors), upstream, ...limits,
    ...(warm ? { warm: true } : {}), ...(noUi ? { ui: false } : {}), ...(abiDirs.length > 0 ? { abiDirs } : {}),
    ...(shutdownTimeoutMs !== undefined ? { shutdownTimeoutMs } : {}), ...(log !== undefined ? { log } : {}),
  };
}

/** `cache ls [--all] | cache clear [FIXTURE] [--cache DIR]`. */
function cacheCommand(argv: readonly string[]): CliOptions {
  const action = argv[1];
  if (action === undefined || action.startsWith('-')) usage('cache needs ls or clear (blocktrace cache ls [--all] | cache clear [FIXTURE] [--cache DIR])');
  if (action !== 'ls' && action !== 'clear') return unknownCommand('cache', action, ['ls', 'clear']);
  const command = `cache ${action}` as const;
  const p: Parsed = readArgv([command], argv.slice(2), command);
  const [fixture, extra] = p.positionals;
  if (action === 'ls' && fixture !== undefined) p.unexpected(fixture);
  if (extra !== undefined) p.unexpected(extra);
  return { kind: 'cache', action, dir: p.last(OPT.cache), ...(fixture === undefined ? {} : { fixture }), ...(p.has(OPT.all) ? { all: true } : {}) };
}
