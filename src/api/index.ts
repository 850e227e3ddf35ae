// blocktrace as a library (issue 48's first part): a chain opened in the process, no server and no
// child process, answering through the same dispatcher as the faces, so every answer is the server's
// bytes for the same request. The matchers for the test runners build on this.
//
//   const chain = await openChain('builtin:cancun-devnet');   // a fixture path, builtin:NAME, or { upstream }
//   await chain.request('eth_blockNumber', []);                // the result; an error answer is thrown
//   await chain.trace(hash);                                   // callTracer with logs
//   await chain.show(hash, { abi: ['out'] });                  // the tree `blocktrace show` prints
//   await chain.close();
import { readAbiDirs } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { fixtureCache } from '../cache/forFixture.ts';
import { defaultCacheDir } from '../cache/snapshot.ts';
import { prepareFixture } from '../cli/fixtureSource.ts';
import { connectUpstream } from '../cli/upstream.ts';
import { createContext, type RpcContext } from '../rpc/context.ts';
import { call, callRaw, RpcCallError } from '../rpc/inProcess.ts';
import { PLAIN } from '../show/render.ts';
import { show } from '../show/show.ts';
import { bindContext } from './contexts.ts';
import { blockTraceRequest, type TraceOptions, txTraceRequest } from './traceRequest.ts';

export { RpcCallError };
export type { TraceOptions };
export { configure, type SnapshotConfig } from './config.ts';
export { gasSnapshotMatcher, type GasReceived, type GasSnapshotOptions } from './gasSnapshot.ts';
export { reportObsolete } from './obsolete.ts';
export { type MatcherOutcome, type RunnerState, updateMode } from './runner.ts';
export { traceSnapshotMatcher, type TraceReceived } from './traceSnapshot.ts';

export type ChainSourceOption =
  | string
  | {
    /** A node's JSON-RPC URL (anvil, Hardhat, geth): blocks and state fetched as needed. */
    readonly upstream: string;
    /** go-ethereum genesis.json with the fork schedule, where the node does not say it. */
    readonly genesis?: string | undefined;
    /** Deadline of each call to the node, in ms. */
    readonly timeoutMs?: number | undefined;
  };

export interface OpenOptions {
  /** Every tracer and debug_* method of go-ethereum, as `--all-tracers` gives the faces. */
  readonly allTracers?: boolean | undefined;
  /** Where the loader and the upstream connection say what they chose or why they failed (default: nowhere). */
  readonly log?: ((line: string) => void) | undefined;
  /** The replay cache's directory, as `--cache DIR` (default: the commands' own, ~/.cache/blocktrace); false for none. */
  readonly cache?: string | false | undefined;
}

export interface Chain {
  /** The result of a JSON-RPC request; an error answer throws an RpcCallError with its code and message. */
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /** The whole answer's text, byte for byte as the server sends it (id 1). */
  requestRaw(method: string, params?: readonly unknown[]): Promise<string>;
  /** debug_traceTransaction's result. */
  trace<T = unknown>(txHash: string, options?: TraceOptions): Promise<T>;
  /** debug_traceBlockByNumber's result (debug_traceBlockByHash for a 32-byte hash). */
  traceBlock<T = unknown>(block: number | bigint | string, options?: TraceOptions): Promise<T>;
  /** The call tree `blocktrace show` prints (no colour), its lines joined. */
  show(target: string, options?: { readonly abi?: readonly string[] | undefined }): Promise<string>;
  /** Lets go of the chain; a request after it throws. */
  close(): Promise<void>;
}

/** Opens a chain: a fixture file or directory, `builtin:NAME`, `FILE#TEST` of ethereum/tests, or a live node. */
export async function openChain(source: ChainSourceOption, options: OpenOptions = {}): Promise<Chain> {
  const log = options.log ?? (() => {});
  let ctx: RpcContext;
  if (typeof source === 'string') {
    // as the commands load a fixture: its replay snapshot when one was kept, else a replay that keeps one
    const dir = options.cache === false ? undefined : (options.cache ?? defaultCacheDir(process.env));
    const replayCache = fixtureCache(source, dir, log);
    const replay = await prepareFixture(source, log);
    ctx = createContext(await replay(undefined, await replayCache()), { log, allTracers: options.allTracers });
  } else {
    let problem = '';
    const connected = await connectUpstream({ url: source.upstream, genesis: source.genesis, timeoutMs: source.timeoutMs }, (line) => {
      problem = line.replace(/^blocktrace: /, '');
      log(line);
    });
    if (connected === undefined) throw new Error(`cannot follow ${source.upstream}: ${problem}`);
    ctx = createContext(connected.chain, { log, forward: connected.forward, allTracers: options.allTracers });
  }
  let open = true;
  const live = (): RpcContext => {
    if (!open) throw new Error('the chain was closed');
    return ctx;
  };
  const chain: Chain = {
    request: async (method, params = []) => call(live(), method, params),
    requestRaw: async (method, params = []) => callRaw(live(), method, params),
    trace: async (txHash, traceOptions) => {
      const { method, params } = txTraceRequest(txHash, traceOptions);
      return call(live(), method, params);
    },
    traceBlock: async (block, traceOptions) => {
      const { method, params } = blockTraceRequest(block, traceOptions);
      return call(live(), method, params);
    },
    show: async (target, showOptions) => {
      const decoder = new AbiDecoder(readAbiDirs(showOptions?.abi ?? [], log));
      return (await show(live(), target, decoder, PLAIN)).join('\n');
    },
    close: async () => {
      open = false;
    },
  };
  bindContext(chain, live);
  return chain;
}
