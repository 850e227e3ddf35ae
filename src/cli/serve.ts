// `blocktrace serve`: the HTTP and WebSocket faces over a fixture (its replay behind a gate, the
// port open at once) or an upstream node. Imported by run.ts only when serve runs.
import { artifactsJson } from '../abi/artifactJson.ts';
import { readAbiDirsOr } from '../abi/artifacts.ts';
import type { LoadProgress, ReplayCache } from '../replay/chain.ts';
import type { ChainView } from '../replay/chainView.ts';
import { createContext, DEFAULT_TRACE_TIMEOUT_MS } from '../rpc/context.ts';
import type { Build } from '../debugger/builds.ts';
import { readDebugBuilds } from '../debugger/readBuilds.ts';
import { createApp } from '../server/app.ts';
import { listen, type Listening } from '../server/listen.ts';
import { currentRuntime } from '../server/runtime.ts';
import { LoadGate } from '../server/loading.ts';
import { createWsFace } from '../server/ws.ts';
import { type RequestLogEntry, requestLogLine } from '../server/requestLog.ts';
import type { FollowedChain } from '../upstream/followedChain.ts';
import { viewerPage } from '../ui/page.ts';
import type { CliOptions } from './args.ts';
import { denoPermissionLine } from './denoPermission.ts';
import { fixtureCache } from '../cache/forFixture.ts';
import { DEFAULT_FIXTURE, prepareFixture } from './fixtureSource.ts';
import { guardMemory, memoryLimit } from './memoryGuard.ts';
import { loadProgress } from './progress.ts';
import { type ChainSource, connectUpstream } from './upstream.ts';
import { warm } from './warm.ts';

/** How long a SIGTERM waits for the requests in flight when --shutdown-timeout is not given. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** A request that reads nothing but the head, sent through the app once before the server is ready. */
const WARM_UP = '{"jsonrpc":"2.0","id":0,"method":"eth_blockNumber","params":[]}';

/** What serve shares with the other commands (run.ts). */
export interface ServeHelpers {
  readonly log: (line: string) => void;
  readonly cacheDir: (option: string | false | undefined) => string | undefined;
  readonly fixtureProblem: (err: unknown, path: string | undefined) => string;
  readonly summary: (chain: ChainView) => string;
}

export async function serve(options: Extract<CliOptions, { kind: 'serve' }>, { log, cacheDir, fixtureProblem, summary }: ServeHelpers): Promise<number> {
  let ui: { page: string; abiJson: string } | undefined;
  if (options.ui !== false) {
    const artifacts = readAbiDirsOr(options.abiDirs ?? [], log);
    if (artifacts === undefined) return 2;
    ui = { page: viewerPage(), abiJson: artifactsJson(artifacts) };
  }
  // the debugger's source maps: the same --abi directories, read when a transaction is first debugged
  const debugBuilds = (): readonly Build[] => {
    try {
      return readDebugBuilds(options.abiDirs ?? []);
    } catch (err) {
      log(`blocktrace: ${(err as Error).message}`);
      return [];
    }
  };
  const contextOf = (source: ChainSource) =>
    createContext(source.chain, { maxBatch: options.maxBatch, maxResponse: options.maxResponse, traceTimeoutMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, log, forward: source.forward, allTracers: options.allTracers, debugBuilds });
  // A fixture is read and checked first (a bad file fails before the port opens); its replay runs
  // after the port opens, behind a gate (src/server/loading.ts). An upstream is connected first.
  let replay: ((progress?: LoadProgress, cache?: ReplayCache) => Promise<ChainView>) | undefined;
  let cache: (() => Promise<ReplayCache | undefined>) | undefined;
  let ctx: ReturnType<typeof contextOf> | undefined;
  let followed: FollowedChain | undefined;
  if (options.upstream !== undefined) {
    const source = await connectUpstream(options.upstream, log);
    if (source === undefined) return 2;
    followed = source.followed;
    ctx = contextOf(source);
  } else {
    // the fixture's cache key is made (a large one's on a worker) while the fixture is read
    cache = fixtureCache(options.fixture, cacheDir(options.cache), log, options.cacheMax);
    try {
      replay = await prepareFixture(options.fixture, log);
    } catch (err) {
      log(fixtureProblem(err, options.fixture));
      return 2;
    }
  }
  const gate = ctx === undefined ? new LoadGate() : undefined;
  let draining = false;
  // the warm-up request below is the server's own: not logged
  let logging = false;
  const requestLog = options.log === 'json' ? (entry: RequestLogEntry): void => void (logging && log(requestLogLine(entry))) : undefined;
  const deps = { ctx, gate, loadWaitMs: options.traceTimeoutMs ?? DEFAULT_TRACE_TIMEOUT_MS, maxBody: options.maxBody, cors: options.cors, ui, draining: () => draining, requestLog };
  const app = createApp(deps);
  let server: Listening;
  try {
    server = await listen(app, {
      hostname: options.host,
      port: options.port,
      // let the app answer oversized bodies itself (as JSON-RPC), Bun only stops the absurd
      maxRequestBodySize: options.maxBody * 2 + 65536,
      ws: createWsFace(deps),
      node: currentRuntime() === 'node' ? (await import('../server/nodeListen.ts')).listenNode : undefined,
    });
  } catch (err) {
    const denied = denoPermissionLine(err, `to listen on ${options.host}:${options.port}`);
    if (denied !== undefined) {
      log(denied);
      return 2;
    }
    const host = await (await import('./hostProblem.ts')).hostProblem(options.host);
    log(`blocktrace: cannot listen on ${options.host}:${options.port}: ${host ?? (err instanceof Error ? err.message : String(err))}`);
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
      const chain = await replay(guardMemory(memoryLimit(options.maxMemory), options.fixture ?? DEFAULT_FIXTURE, (done, total, txs, head, phase) => {
        gate.progress(done, total, head);
        shown?.(done, total, txs, head, phase);
      }), await cache!());
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
  // the first request through the app costs some 15 ms of its own (compiling its routes, the first
  // run of the JSON-RPC path): paid here, before the server says it is ready, not by a client
  if (replay !== undefined) await app.handle(new Request(`http://${shownHost}:${server.port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: WARM_UP }));
  log(summary(chain));
  logging = true;
  if (options.warm === true) void warm(chain, log);
  const unfollow = followed === undefined ? undefined : (await import('./followUpstream.ts')).followUpstream(followed, log, summary);
  const shutdownMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  return new Promise((done) => {
    // a replica's shutdown: /health says draining, the port closes (a load balancer's next try goes
    // to another replica), WebSockets get 1001, the requests in flight are answered up to the
    // deadline; a second signal cuts them at once
    const stop = (signal: string): void => {
      if (draining) {
        log(`blocktrace: ${signal} again, stopping now`);
        void server.stop().then(() => done(0));
        return;
      }
      draining = true;
      log(`blocktrace: ${signal}, draining (the requests in flight get up to ${shutdownMs / 1000} s)`);
      unfollow?.();
      void server.drain(shutdownMs).then((cut) => {
        if (cut > 0) log(`blocktrace: --shutdown-timeout passed; ${cut} request${cut === 1 ? '' : 's'} in flight cut`);
        done(0);
      });
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

