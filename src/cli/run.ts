// The commands that load a chain (the harness here; serve, check, record, capture, show and cache
// imported when they run), imported by src/cli.ts only when one runs: --help and --version load
// none of this, and the harness loads no server.
import type { CliOptions } from './args.ts';
import { fixtureCache } from '../cache/forFixture.ts';
import { DEFAULT_FIXTURE, prepareFixture } from './fixtureSource.ts';
import { replayRequests } from './replayFile.ts';
import type { ChainSource } from './upstream.ts';
import type { GoldenIo } from './check.ts';
import type { UpstreamSource } from './upstreamArgs.ts';
import { FixtureError } from '../errors/fixtureError.ts';
import { defaultCacheDir } from '../cache/snapshot.ts';
import { guardMemory, memoryLimit } from './memoryGuard.ts';
import { loadProgress } from './progress.ts';
import type { ChainView } from '../replay/chainView.ts';
import { createContext, DEFAULT_TRACE_TIMEOUT_MS } from '../rpc/context.ts';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The replay cache directory an option names: false for none, undefined for the default one. */
function cacheDir(option: string | false | undefined): string | undefined {
  return option === false ? undefined : (option ?? defaultCacheDir(process.env));
}

/** The harness and show load the whole chain first; one line when they cannot. No path: the default built-in one. */
async function load(path: string | undefined, cache: string | false | undefined, cacheMax?: number, maxMemory?: number): Promise<ChainView | undefined> {
  try {
    const progress = guardMemory(memoryLimit(maxMemory), path ?? DEFAULT_FIXTURE, loadProgress(process.stderr));
    // the fixture's cache key is made (a large one's on a worker) while the fixture is read
    const replayCache = fixtureCache(path, cacheDir(cache), log, cacheMax);
    const replay = await prepareFixture(path, log);
    return await replay(progress, await replayCache());
  } catch (err) {
    log(fixtureProblem(err, path));
    return undefined;
  }
}

/** The chain a face answers from: a fixture, or a live node (upstream mode, which forwards the rest). */
async function open(upstream: UpstreamSource | undefined, fixture: string | undefined, cache: string | false | undefined, cacheMax?: number, maxMemory?: number): Promise<ChainSource | undefined> {
  if (upstream !== undefined) return (await import('./upstream.ts')).connectUpstream(upstream, log);
  const chain = await load(fixture, cache, cacheMax, maxMemory);
  return chain === undefined ? undefined : { chain };
}

function summary(chain: ChainView): string {
  if (chain.fetch !== undefined) {
    const forks = chain.forkNote === undefined ? '' : `; forks: ${chain.forkNote}`;
    return `chain ${chain.label}: chainId ${chain.chainId}, head ${chain.head.number} (blocks and state fetched on demand)${forks}`;
  }
  // a capture starts at block N−1, not at 0
  return `chain ${chain.label}: chainId ${chain.chainId}, blocks ${chain.genesis.number}..${chain.head.number}, ${chain.transactionCount ?? 0} transactions`;
}

/** One line for a fixture that cannot be read or replayed: the user's input, not our defect. */
function fixtureProblem(err: unknown, path: string | undefined): string {
  const message = err instanceof Error ? err.message : String(err);
  const oneLine = message.split('\n')[0]!.trim();
  return err instanceof FixtureError ? `blocktrace: ${oneLine}` : `blocktrace: cannot load fixture ${path ?? DEFAULT_FIXTURE}: ${oneLine}`;
}

async function replay(options: Extract<CliOptions, { kind: 'replay' | 'upstream' }>): Promise<number> {
  const source = await open(options.kind === 'upstream' ? options.source : undefined, options.kind === 'replay' ? options.fixture : undefined, options.cache, options.cacheMax, options.maxMemory);
  if (source === undefined) return 2;
  const ctx = createContext(source.chain, { maxBatch: options.maxBatch, maxResponse: options.maxResponse, traceTimeoutMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, log, forward: source.forward, allTracers: options.allTracers });
  await replayRequests(ctx, options.requests, { stdin: process.stdin, stdout: process.stdout });
  return 0;
}

/** check and record: report on stdout, progress only when stderr is a terminal. */
const goldenIo = (): GoldenIo => ({ stdout: process.stdout, stderr: process.stderr, progress: process.stderr.isTTY === true, log, load: (path, cache) => load(path, cache) });

/** Runs a command that needs a chain; its exit status. */
export async function run(options: Exclude<CliOptions, { kind: 'help' | 'version' | 'usage' }>): Promise<number> {
  switch (options.kind) {
    case 'serve':
      return (await import('./serve.ts')).serve(options, { log, cacheDir, fixtureProblem, summary });
    case 'replay':
    case 'upstream':
      return replay(options);
    case 'check':
      return (await import('./check.ts')).check(options, goldenIo());
    case 'record':
      return (await import('./record.ts')).record(options, goldenIo());
    case 'capture':
      return (await import('./capture.ts')).runCapture(options, log);
    case 'show':
      return (await import('./show.ts')).runShow(options, { open, log, stdout: process.stdout, env: process.env });
    case 'debug':
      return (await import('./debug.ts')).runDebug(options, { open, log, stdout: process.stdout, stdin: process.stdin, env: process.env });
    case 'diff':
      return (await import('./diff.ts')).runDiff(options, { stdout: process.stdout, log, open });
    case 'cache':
      return (await import('./cacheCommand.ts')).runCache(options, cacheDir(options.dir), process.stdout, log);
  }
}
