// The commands that load a chain (serve, the harness, check, record, capture, show), imported by
// src/cli.ts only when one runs, so that --help and --version load none of this.
import type { CliOptions } from './args.ts';
import { runCapture } from './capture.ts';
import { check, type GoldenIo } from './check.ts';
import { DEFAULT_FIXTURE_NAME, loadDefaultChain, prepareDefaultChain } from './defaultFixture.ts';
import { record } from './record.ts';
import { replayRequests } from './replayFile.ts';
import { runShow } from './show.ts';
import { readArtifacts, type Artifact } from '../abi/artifacts.ts';
import { viewerPage } from '../ui/page.ts';
import { connectUpstream, type ChainSource } from './upstream.ts';
import type { UpstreamSource } from './upstreamArgs.ts';
import { FixtureError } from '../errors/fixtureError.ts';
import { loadChain, prepareChain } from '../replay/loadChain.ts';
import type { LoadProgress, ReplayCache } from '../replay/chain.ts';
import { fixtureCache } from '../cache/forFixture.ts';
import { runCache } from './cacheCommand.ts';
import { defaultCacheDir } from '../cache/snapshot.ts';
import { LoadGate } from '../server/loading.ts';
import { loadProgress } from './progress.ts';
import { warm } from './warm.ts';
import type { ChainView } from '../replay/chainView.ts';
import { createContext, DEFAULT_TRACE_TIMEOUT_MS } from '../rpc/context.ts';
import { createApp } from '../server/app.ts';
import { createWsFace } from '../server/ws.ts';
import { listen, type Listening } from '../server/listen.ts';

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** The replay cache directory an option names: false for none, undefined for the default one. */
function cacheDir(option: string | false | undefined): string | undefined {
  return option === false ? undefined : (option ?? defaultCacheDir(process.env));
}

/** The harness and show load the whole chain first; one line when they cannot. No path: the built-in one. */
async function load(path: string | undefined, cache: string | false | undefined, cacheMax?: number): Promise<ChainView | undefined> {
  try {
    const progress = loadProgress(process.stderr);
    const replayCache = fixtureCache(path, cacheDir(cache), log, cacheMax);
    return await (path === undefined ? loadDefaultChain(progress, replayCache) : loadChain(path, progress, replayCache));
  } catch (err) {
    log(fixtureProblem(err, path));
    return undefined;
  }
}

/** The chain a face answers from: a fixture, or a live node (upstream mode, which forwards the rest). */
async function open(upstream: UpstreamSource | undefined, fixture: string | undefined, cache: string | false | undefined, cacheMax?: number): Promise<ChainSource | undefined> {
  if (upstream !== undefined) return connectUpstream(upstream, log);
  const chain = await load(fixture, cache, cacheMax);
  return chain === undefined ? undefined : { chain };
}

function summary(chain: ChainView): string {
  if (chain.fetch !== undefined) return `chain ${chain.label}: chainId ${chain.chainId}, head ${chain.head.number} (blocks and state fetched on demand)`;
  // a capture starts at block N−1, not at 0
  return `chain ${chain.label}: chainId ${chain.chainId}, blocks ${chain.genesis.number}..${chain.head.number}, ${chain.transactionCount ?? 0} transactions`;
}

/** One line for a fixture that cannot be read or replayed: the user's input, not our defect. */
function fixtureProblem(err: unknown, path: string | undefined): string {
  const message = err instanceof Error ? err.message : String(err);
  const oneLine = message.split('\n')[0]!.trim();
  return err instanceof FixtureError ? `blocktrace: ${oneLine}` : `blocktrace: cannot load fixture ${path ?? DEFAULT_FIXTURE_NAME}: ${oneLine}`;
}

async function serve(options: Extract<CliOptions, { kind: 'serve' }>): Promise<number> {
  let ui: { page: string; abiJson: string } | undefined;
  if (options.ui !== false) {
    const artifacts: Artifact[] = [];
    for (const dir of options.abiDirs ?? []) {
      try {
        artifacts.push(...readArtifacts(dir));
      } catch (err) {
        log(`blocktrace: cannot read --abi ${dir}: ${(err as Error).message.split('\n')[0]}`);
        return 2;
      }
    }
    ui = { page: viewerPage(), abiJson: JSON.stringify(artifacts) };
  }
  const contextOf = (source: ChainSource) =>
    createContext(source.chain, { maxBatch: options.maxBatch, maxResponse: options.maxResponse, traceTimeoutMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, log, forward: source.forward, allTracers: options.allTracers });
  // A fixture is read and checked first (a bad file fails before the port opens); its replay runs
  // after the port opens, behind a gate (src/server/loading.ts). An upstream is connected first.
  let replay: ((progress?: LoadProgress, cache?: ReplayCache) => Promise<ChainView>) | undefined;
  let ctx: ReturnType<typeof contextOf> | undefined;
  if (options.upstream !== undefined) {
    const source = await connectUpstream(options.upstream, log);
    if (source === undefined) return 2;
    ctx = contextOf(source);
  } else {
    try {
      replay = options.fixture === undefined ? await prepareDefaultChain() : prepareChain(options.fixture);
    } catch (err) {
      log(fixtureProblem(err, options.fixture));
      return 2;
    }
  }
  const gate = ctx === undefined ? new LoadGate() : undefined;
  const deps = { ctx, gate, loadWaitMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, maxBody: options.maxBody, cors: options.cors, ui };
  const app = createApp(deps);
  let server: Listening;
  try {
    server = await listen(app, {
      hostname: options.host,
      port: options.port,
      // let the app answer oversized bodies itself (as JSON-RPC), Bun only stops the absurd
      maxRequestBodySize: options.maxBody * 2 + 65536,
      ws: createWsFace(deps),
    });
  } catch (err) {
    log(`blocktrace: cannot listen on ${options.host}:${options.port}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  log(`blocktrace listening on http://${shownHost}:${server.port}/`);
  if (replay !== undefined && gate !== undefined) {
    const shown = loadProgress(process.stderr);
    // a signal during the load stops it at once: the replay yields often enough to hear it
    // (replay/cooperative.ts); a snapshot is written to a temporary file and renamed, so none is half-written
    const interrupt = (signal: 'SIGINT' | 'SIGTERM') => (): void => {
      log(`blocktrace: ${signal} during the load, stopping`);
      void server.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    };
    const onInt = interrupt('SIGINT');
    const onTerm = interrupt('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
    try {
      const chain = await replay((done, total, txs, head) => {
        gate.progress(done, total, head);
        shown?.(done, total, txs, head);
      }, fixtureCache(options.fixture, cacheDir(options.cache), log, options.cacheMax));
      ctx = contextOf({ chain });
      gate.open(ctx);
    } catch (err) {
      gate.fail();
      log(fixtureProblem(err, options.fixture));
      await server.stop();
      return 2;
    } finally {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
    }
  }
  const chain = ctx!.chain;
  log(summary(chain));
  if (options.warm === true) void warm(chain, log);
  return new Promise((done) => {
    const stop = (signal: string): void => {
      log(`blocktrace: ${signal}, shutting down`);
      // close open keep-alive connections too, so the process ends promptly
      void server.stop().then(() => done(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

async function replay(options: Extract<CliOptions, { kind: 'replay' | 'upstream' }>): Promise<number> {
  const source = await open(options.kind === 'upstream' ? options.source : undefined, options.kind === 'replay' ? options.fixture : undefined, options.cache, options.cacheMax);
  if (source === undefined) return 2;
  const ctx = createContext(source.chain, { maxBatch: options.maxBatch, maxResponse: options.maxResponse, traceTimeoutMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, log, forward: source.forward, allTracers: options.allTracers });
  await replayRequests(ctx, options.requests, { stdin: process.stdin, stdout: process.stdout });
  return 0;
}

/** check and record: report on stdout, progress only when stderr is a terminal. */
const goldenIo = (): GoldenIo => ({ stdout: process.stdout, stderr: process.stderr, progress: process.stderr.isTTY === true, log, load: (path) => load(path, undefined) });

/** Runs a command that needs a chain; its exit status. */
export function run(options: Exclude<CliOptions, { kind: 'help' | 'version' | 'usage' }>): Promise<number> {
  switch (options.kind) {
    case 'serve':
      return serve(options);
    case 'replay':
    case 'upstream':
      return replay(options);
    case 'check':
      return check(options, goldenIo());
    case 'record':
      return record(options, goldenIo());
    case 'capture':
      return runCapture(options, log);
    case 'show':
      return runShow(options, { open, log, stdout: process.stdout, env: process.env });
    case 'cache':
      return Promise.resolve(runCache(options.action, cacheDir(options.dir), process.stdout, log));
  }
}
