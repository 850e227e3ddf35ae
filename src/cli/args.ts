// argv → typed options. Pure: no I/O, no exit; cli.ts acts on the result.

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8545;
export const DEFAULT_MAX_BODY = 5 * 1024 * 1024;
export const DEFAULT_MAX_BATCH = 100;

export const HELP_TEXT = `blocktrace — replays an Ethereum fixture chain and answers block-tracing JSON-RPC
like go-ethereum (debug_*) and reth/anvil (trace_*).

Usage:
  blocktrace serve [FIXTURE] [--host HOST] [--port PORT] [--max-body SIZE] [--max-batch N]
  blocktrace [--max-batch N] --replay-file FIXTURE [REQUEST...]
  blocktrace --help

serve
  Loads FIXTURE (default: golden/fixtures/prague-devnet/fixture.json) and serves JSON-RPC 2.0
  on POST / (Content-Type: application/json). JSON-RPC errors travel with HTTP 200. The URL and a
  chain summary go to stderr; SIGINT/SIGTERM stop the server cleanly.
    --host HOST        address to bind (default ${DEFAULT_HOST}; use 0.0.0.0 deliberately)
    --port PORT        TCP port, 0 for any free port (default ${DEFAULT_PORT})
    --max-body SIZE    largest request body: bytes or with a unit, e.g. 512KiB, 5MiB (default 5MiB)
    --max-batch N      most requests in one batch, 0 for no limit (default ${DEFAULT_MAX_BATCH})

--replay-file FIXTURE [REQUEST...]   (the harness)
  Loads FIXTURE, then answers each REQUEST argument, or with none each line of stdin, in order:
  exactly one line on stdout per request, holding the bytes the server would send for that body
  (without its trailing newline). A request that gets no answer (a notification, a batch of
  notifications) prints an empty line, so that line i always answers request i. Blank lines and
  blank arguments are not requests and are skipped. Nothing else is written to stdout; logs go to
  stderr.

FIXTURE is a blocktrace/anvil fixture.json, a go-ethereum tracer test JSON, or a directory with
genesis.json and chain.rlp (execution-apis).

Methods: debug_traceBlockByNumber, debug_traceBlockByHash, debug_traceTransaction (tracers
callTracer, prestateTracer), trace_block, trace_transaction, eth_chainId, eth_blockNumber,
eth_getBlockByNumber, eth_getBlockByHash, eth_getTransactionByHash, eth_getTransactionReceipt,
net_version, web3_clientVersion.

Exit status: 0 success (also when answers are JSON-RPC errors); 2 the fixture cannot be loaded or
the command line is wrong.
`;

export type CliOptions =
  | { readonly kind: 'help' }
  | { readonly kind: 'replay'; readonly fixture: string; readonly requests: readonly string[] | undefined; readonly maxBatch: number }
  | {
      readonly kind: 'serve';
      readonly fixture: string | undefined;
      readonly host: string;
      readonly port: number;
      readonly maxBody: number;
      readonly maxBatch: number;
    }
  | { readonly kind: 'usage'; readonly message: string };

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
  let host = DEFAULT_HOST;
  let port = DEFAULT_PORT;
  let maxBody = DEFAULT_MAX_BODY;
  let maxBatch = DEFAULT_MAX_BATCH;
  let serve = false;
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
    }
  };
  for (let i = 0; i < argv.length; ) {
    const arg = argv[i]!;
    if (arg === '--replay-file' || arg.startsWith('--replay-file=')) {
      if (serve || sawServeOption) throw new Usage('--replay-file cannot be combined with serve options');
      const [path, next] = takeValue(argv, i, '--replay-file');
      if (path === '') throw new Usage('--replay-file needs a fixture path');
      const rest = argv.slice(next);
      return { kind: 'replay', fixture: path, requests: rest.length === 0 ? undefined : rest, maxBatch };
    }
    const name = arg.split('=')[0]!;
    if (['--host', '--port', '--max-body', '--max-batch'].includes(name)) {
      const [value, next] = takeValue(argv, i, name);
      apply(name, value);
      if (name !== '--max-batch') sawServeOption = true;
      i = next;
      continue;
    }
    if (arg === 'serve' && !serve) {
      serve = true;
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
  return { kind: 'serve', fixture, host, port, maxBody, maxBatch };
}
