// argv → typed options. Pure: no I/O, no exit; cli.ts acts on the result.
import { parseGoldenCommand, type CheckCommand, type RecordCommand } from './goldenArgs.ts';
import { parseGoDuration } from '../rpc/goDuration.ts';
import { checkUpstreamUrl, parseCaptureCommand, parseUpstreamTimeout, type CaptureCommand, type UpstreamSource } from './upstreamArgs.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8545;
export const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 100;

export const HELP_TEXT = `blocktrace — replays an Ethereum fixture chain and answers block-tracing JSON-RPC
like go-ethereum (debug_*) and reth/anvil (trace_*).

Usage:
  blocktrace serve [FIXTURE] [--host HOST] [--port PORT] [--max-body SIZE] [--max-batch N]
                  [--max-response SIZE] [--trace-timeout DURATION] [--cors ORIGIN[,ORIGIN...]] [--warm]
  blocktrace [--max-batch N] [--max-response SIZE] [--trace-timeout DURATION] --replay-file FIXTURE [REQUEST...]
  blocktrace check FIXTURE GOLDEN... [--semantic] [--json] [--filter METHOD|NAME]...
  blocktrace record FIXTURE REQUESTS --out DIR [--filter METHOD|NAME]...
  blocktrace serve --upstream URL [--genesis FILE] [--upstream-timeout DURATION] [serve options]
  blocktrace [--genesis FILE] [--upstream-timeout DURATION] [--max-batch N] ... --upstream URL [REQUEST...]
  blocktrace capture --rpc URL --block N [--to M] --out FILE [--genesis FILE] [--upstream-timeout DURATION]
  blocktrace --help

serve
  Loads FIXTURE (default: golden/fixtures/prague-devnet/fixture.json) and serves JSON-RPC 2.0
  on POST / (Content-Type: application/json). JSON-RPC errors travel with HTTP 200. The URL and a
  chain summary go to stderr; SIGINT/SIGTERM stop the server cleanly.
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

--replay-file FIXTURE [REQUEST...]   (the harness)
  Loads FIXTURE, then answers each REQUEST argument, or with none each line of stdin, in order:
  exactly one line on stdout per request, holding the bytes the server would send for that body
  (without its trailing newline). A request that gets no answer (a notification, a batch of
  notifications) prints an empty line, so that line i always answers request i. Blank lines and
  blank arguments are not requests and are skipped. Nothing else is written to stdout; logs go to
  stderr.

check FIXTURE GOLDEN...   (for CI: are the recorded answers still ours?)
  Replays every recorded exchange of each GOLDEN (a file, or a directory walked recursively) and
  compares our answer with the recorded one, byte for byte. Layouts: execution-apis .io files
  (">>" request, "<<" response, "//" comment lines), NAME.request.json + NAME.response.json pairs
  (one final newline of a response file is ignored; an empty one means no answer), and JSON arrays
  of {"request", "response"} objects (Erigon rpc-tests; recordings without result or error are
  skipped). Each failure names the case, the JSON path of the first difference with both values,
  and the bytes around it; the last stdout line is "N passed, M failed". Progress goes to stderr
  when it is a terminal.
    --semantic         compare parsed values, object keys in any order (pretty-printed or
                       key-sorted recordings; needed for Erigon's files)
    --json             print one JSON report instead of text
    --filter X         keep cases whose method is X or whose name contains X (repeatable)

record FIXTURE REQUESTS --out DIR
  Answers each request and writes DIR/NAME.request.json and DIR/NAME.response.json (our exact
  bytes; empty for no answer). REQUESTS is a file of request lines (named 001.METHOD, ...) or a
  golden in any layout above (its requests are answered again, under their names). Never
  overwrites a file. A record then a check on the same fixture passes.
    --filter X         as for check

--upstream URL   (upstream mode: a sidecar of a live node, e.g. anvil)
  Blocks come from the node at URL (eth_getBlockByNumber/ByHash with transactions); each block is
  replayed from the node's state at its parent, read lazily (eth_getProof, eth_getCode,
  eth_getStorageAt), each account and slot fetched once. The tracing methods are answered here;
  every other method goes to the node unchanged. With serve it serves; without, it is the
  harness face (requests as for --replay-file). Upstream failures, timeouts and missing history
  come back as JSON-RPC errors (-32000) naming the upstream.
    --genesis FILE     the chain's go-ethereum genesis.json (its fork schedule); not needed for
                       mainnet, sepolia, holesky, hoodi, or an anvil (it reports its hardfork)
    --upstream-timeout DURATION  deadline of each call to the node (default 10s)

capture --rpc URL --block N [--to M] --out FILE
  Writes a self-contained fixture of blocks N..M (default M = N) from the node at URL: the blocks,
  the pre-state at block N-1 of every account and slot they read, the ancestor hashes BLOCKHASH
  reads, and the fork schedule. It is replayed (and checked) before it is written; a fixture
  file is never overwritten. --genesis and --upstream-timeout as above.

FIXTURE is a blocktrace/anvil fixture.json, a blocktrace capture, a go-ethereum tracer test JSON, a
directory with genesis.json and chain.rlp (execution-apis), or an ethereum/tests blockchain-test file
(FILE#NAME picks one test of a file holding several).

Methods: debug_traceBlockByNumber, debug_traceBlockByHash, debug_traceTransaction (tracers
callTracer, prestateTracer), trace_block, trace_transaction, eth_chainId, eth_blockNumber,
eth_getBlockByNumber, eth_getBlockByHash, eth_getTransactionByHash, eth_getTransactionReceipt,
net_version, web3_clientVersion.

Exit status: 0 success (also when answers are JSON-RPC errors); 1 check found a difference or
its --filter kept nothing; 2 the fixture, a golden or a request file cannot be read (named on stderr),
record would overwrite a file, or the command line is wrong.
`;

export type CliOptions =
  | { readonly kind: 'help' }
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
  | { readonly kind: 'usage'; readonly message: string };

/** Limits of the dispatcher, for both faces; undefined: the default of rpc/context.ts. */
export interface DispatchLimits {
  /** Bytes; 0 for no limit. */
  readonly maxResponse?: number | undefined;
  /** Milliseconds; 0 for no deadline. */
  readonly traceTimeoutMs?: number | undefined;
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1000,
  kb: 1000,
  kib: 1024,
  m: 1000 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1000 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** "5MiB" → 5242880; undefined when not a size. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(text.trim());
  if (!m) return undefined;
  const unit = SIZE_UNITS[m[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

function parseCount(text: string, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= max ? n : undefined;
}

class Usage extends Error {}

/** Splits `--name=value` / `--name value`; returns the value or throws Usage. */
function takeValue(argv: readonly string[], i: number, name: string): [string, number] {
  const arg = argv[i]!;
  if (arg.startsWith(`${name}=`)) return [arg.slice(name.length + 1), i + 1];
  const next = argv[i + 1];
  if (next === undefined) throw new Usage(`${name} needs a value`);
  return [next, i + 2];
}

export function parseArgs(argv: readonly string[]): CliOptions {
  try {
    return parse(argv);
  } catch (err) {
    if (err instanceof Usage) return { kind: 'usage', message: err.message };
    throw err;
  }
}

function parse(argv: readonly string[]): CliOptions {
  if (argv.length === 0) throw new Usage('nothing to do: give "serve [FIXTURE]" or "--replay-file FIXTURE"');
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    // a request argument may contain anything: only look before --replay-file's requests
    const replayAt = argv.findIndex((a) => a === '--replay-file' || a.startsWith('--replay-file='));
    const helpAt = argv.findIndex((a) => a === '--help' || a === '-h' || a === 'help');
    if (replayAt === -1 || helpAt < replayAt) return { kind: 'help' };
  }
  if (argv[0] === 'check' || argv[0] === 'record') return parseGoldenCommand(argv);
  if (argv[0] === 'capture') return parseCaptureCommand(argv);
  let host = DEFAULT_HOST;
  let port = DEFAULT_PORT;
  let maxBody = DEFAULT_MAX_BODY;
  let maxBatch = DEFAULT_MAX_BATCH;
  let maxResponse: number | undefined;
  let traceTimeoutMs: number | undefined;
  let cors: string[] | undefined;
  let upstreamUrl: string | undefined;
  let genesis: string | undefined;
  let upstreamTimeoutMs: number | undefined;
  let serve = false;
  let warm = false;
  let fixture: string | undefined;
  let sawServeOption = false;
  const apply = (name: string, value: string): void => {
    switch (name) {
      case '--host':
        if (value === '') throw new Usage('--host needs an address');
        host = value;
        return;
      case '--port': {
        const n = parseCount(value, 65535);
        if (n === undefined) throw new Usage(`--port: not a port number: ${value}`);
        port = n;
        return;
      }
      case '--max-body': {
        const n = parseSize(value);
        if (n === undefined) throw new Usage(`--max-body: not a size: ${value} (e.g. 1048576, 512KiB, 5MiB)`);
        maxBody = n;
        return;
      }
      case '--max-batch': {
        const n = parseCount(value, 1_000_000);
        if (n === undefined) throw new Usage(`--max-batch: not a count: ${value}`);
        maxBatch = n;
        return;
      }
      case '--max-response': {
        const n = value.trim() === '0' ? 0 : parseSize(value);
        if (n === undefined) throw new Usage(`--max-response: not a size: ${value} (e.g. 0, 1048576, 25MB)`);
        maxResponse = n;
        return;
      }
      case '--trace-timeout': {
        let ms: number;
        try {
          ms = parseGoDuration(value);
        } catch (err) {
          throw new Usage(`--trace-timeout: ${(err as Error).message} (e.g. 0, 300ms, 5s, 1m30s)`);
        }
        if (ms < 0) throw new Usage(`--trace-timeout: a duration cannot be negative: ${value}`);
        traceTimeoutMs = ms;
        return;
      }
      case '--cors': {
        const origins = value.split(',').map((o) => o.trim());
        if (origins.some((o) => o === '' || /\s/.test(o))) throw new Usage(`--cors: not a list of origins: ${value} (e.g. http://localhost:3000,https://app.example)`);
        cors = origins;
        return;
      }
      case '--genesis':
        if (value === '') throw new Usage('--genesis needs a file');
        genesis = value;
        return;
      case '--upstream-timeout': {
        const ms = parseUpstreamTimeout(value);
        if (typeof ms === 'string') throw new Usage(ms);
        upstreamTimeoutMs = ms;
        return;
      }
    }
  };
  const upstreamOf = (url: string): UpstreamSource => {
    const problem = checkUpstreamUrl('--upstream', url);
    if (problem !== undefined) throw new Usage(problem);
    return { url, genesis, timeoutMs: upstreamTimeoutMs };
  };
  for (let i = 0; i < argv.length; ) {
    const arg = argv[i]!;
    if (arg === '--replay-file' || arg.startsWith('--replay-file=')) {
      if (serve || sawServeOption) throw new Usage('--replay-file cannot be combined with serve options');
      const [path, next] = takeValue(argv, i, '--replay-file');
      if (path === '') throw new Usage('--replay-file needs a fixture path');
      const rest = argv.slice(next);
      return { kind: 'replay', fixture: path, requests: rest.length === 0 ? undefined : rest, maxBatch, maxResponse, traceTimeoutMs };
    }
    if ((arg === '--upstream' || arg.startsWith('--upstream=')) && !serve) {
      // the harness face: as --replay-file, the arguments after the URL are requests
      if (sawServeOption) throw new Usage('--upstream without serve cannot be combined with serve options');
      const [url, next] = takeValue(argv, i, '--upstream');
      const rest = argv.slice(next);
      return { kind: 'upstream', source: upstreamOf(url), requests: rest.length === 0 ? undefined : rest, maxBatch, maxResponse, traceTimeoutMs };
    }
    if (arg === '--upstream' || arg.startsWith('--upstream=')) {
      const [url, next] = takeValue(argv, i, '--upstream');
      upstreamUrl = url;
      i = next;
      continue;
    }
    const name = arg.split('=')[0]!;
    if (['--host', '--port', '--max-body', '--max-batch', '--max-response', '--trace-timeout', '--cors', '--genesis', '--upstream-timeout'].includes(name)) {
      const [value, next] = takeValue(argv, i, name);
      apply(name, value);
      if (!['--max-batch', '--max-response', '--trace-timeout', '--genesis', '--upstream-timeout'].includes(name)) sawServeOption = true;
      i = next;
      continue;
    }
    if (arg === 'serve' && !serve) {
      serve = true;
    } else if (arg === '--warm') {
      warm = true;
      sawServeOption = true;
    } else if (arg.startsWith('-')) {
      throw new Usage(`unknown option: ${arg}`);
    } else if (serve && fixture === undefined) {
      fixture = arg;
    } else {
      throw new Usage(`unexpected argument: ${arg}`);
    }
    i++;
  }
  if (!serve) throw new Usage('nothing to do: give "serve [FIXTURE]" or "--replay-file FIXTURE"');
  if (upstreamUrl !== undefined && fixture !== undefined) throw new Usage('serve takes a FIXTURE or --upstream URL, not both');
  if (upstreamUrl === undefined && (genesis !== undefined || upstreamTimeoutMs !== undefined)) {
    throw new Usage('--genesis and --upstream-timeout need --upstream URL');
  }
  const upstream = upstreamUrl === undefined ? undefined : upstreamOf(upstreamUrl);
  if (warm && upstream !== undefined) throw new Usage('--warm traces a fixture; it does not apply to --upstream');
  return { kind: 'serve', fixture, host, port, maxBody, maxBatch, maxResponse, traceTimeoutMs, cors, upstream, ...(warm ? { warm } : {}) };
}
