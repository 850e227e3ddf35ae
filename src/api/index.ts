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
import type { Chain, ChainSourceOption, OpenOptions } from './types/index.d.ts';
import { blockTraceRequest, type TraceOptions, txTraceRequest } from './traceRequest.ts';

export { RpcCallError };
export type { Chain, ChainSourceOption, OpenOptions, TraceOptions };
export { configure, type SnapshotConfig } from './config.ts';
export { type ExpectMatchers, type ExpectState, expectMatchers } from './expectMatchers.ts';
export { gasSnapshotMatcher, type GasReceived, type GasSnapshotOptions } from './gasSnapshot.ts';
export { reportObsolete } from './obsolete.ts';
export { type MatcherOutcome, type RunnerState, updateMode } from './runner.ts';
export { traceSnapshotMatcher, type TraceReceived } from './traceSnapshot.ts';

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
