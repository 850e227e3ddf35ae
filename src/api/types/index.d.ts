// The types of `blocktrace` (the package's main export, dist/lib/index.mjs), written by hand: the
// sources take their option and result types from here (one definition), and test/apiTypes.ts holds
// the declared functions to the sources under tsc; build.ts copies this file to dist/lib/.

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

export interface TraceOptions {
  /** Default `callTracer`. */
  readonly tracer?: string | undefined;
  /** Default `{ withLog: true }` for callTracer, none for another tracer. */
  readonly tracerConfig?: unknown;
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
export declare function openChain(source: ChainSourceOption, options?: OpenOptions): Promise<Chain>;

/** A JSON-RPC error answer, thrown by `request` and the trace calls. */
export declare class RpcCallError extends Error {
  readonly method: string;
  readonly code: number;
  readonly data?: unknown;
  constructor(method: string, code: number, message: string, data?: unknown);
}

export interface SnapshotConfig {
  /** Directories of compiler output (Foundry out/, Hardhat artifacts/, ABI .json files), as `check --abi`. */
  readonly abi?: readonly string[] | undefined;
  /** check's `--ignore` rules: a member name (`blockHash`) or a JSON path (`$.result.gasUsed`). */
  readonly ignore?: readonly string[] | undefined;
}

/** Replaces the settings of every later snapshot comparison; throws an Error naming a path or rule it cannot use. */
export declare function configure(options: SnapshotConfig): void;

/** What `expect(…)` takes for toMatchTraceSnapshot: a chain from openChain and the transaction or block to trace. */
export type TraceReceived = TraceOptions & { readonly chain: Chain } & ({ readonly tx: string } | { readonly block: number | bigint | string });

/** What `expect(…)` takes for toMatchGasSnapshot: a transaction, a receipt's `{ gasUsed }`, or the gas itself. */
export type GasReceived = { readonly chain: Chain; readonly tx: string } | { readonly gasUsed: bigint | number | string } | bigint | number;

export interface GasSnapshotOptions {
  /** How far the gas may move and still pass: gas (`500`) or a share of the recorded value (`'2%'`). Default 0. */
  readonly tolerance?: number | `${number}%` | undefined;
}

/** What a matcher needs of the runner that called it (for an adapter of another runner). */
export interface RunnerState {
  /** The running test file. */
  readonly testPath: string;
  /** The running test's full name, when the runner says it (vitest, jest). */
  readonly testName?: string | undefined;
  /** `all`: rewrite what differs; `new`: write what is missing; `none`: write nothing (CI). */
  readonly update: 'all' | 'new' | 'none';
  /** How this runner is told to update its snapshots, for the failure message. */
  readonly updateFlag: string;
}

/** What a matcher returns to its runner. */
export interface MatcherOutcome {
  readonly pass: boolean;
  readonly message: () => string;
}

/** The runner's snapshot mode, made `none` in CI (`CI=true`) where it would still write new snapshots. */
export declare function updateMode(all: boolean, runnerMode?: string): RunnerState['update'];
export declare function traceSnapshotMatcher(state: RunnerState, received: unknown, name?: string): Promise<MatcherOutcome>;
export declare function gasSnapshotMatcher(state: RunnerState, received: unknown, name?: string, options?: GasSnapshotOptions): Promise<MatcherOutcome>;
/** Says (through `warn`) each snapshot of the test files run so far that no test asked for. */
export declare function reportObsolete(warn?: (line: string) => void): string[];

/** The `this` vitest's and jest's expect give a custom matcher. */
export interface ExpectState {
  readonly isNot: boolean;
  readonly testPath?: string | undefined;
  readonly currentTestName?: string | undefined;
  readonly snapshotState?: { readonly _updateSnapshot?: string } | undefined;
}

export interface ExpectMatchers {
  toMatchTraceSnapshot(this: ExpectState, received: unknown, name?: string): Promise<MatcherOutcome>;
  toMatchGasSnapshot(this: ExpectState, received: unknown, name?: string, options?: GasSnapshotOptions): Promise<MatcherOutcome>;
}

/** toMatchTraceSnapshot and toMatchGasSnapshot for the expect of `runner` (`vitest`, `jest`), updated by `updateFlag`. */
export declare function expectMatchers(runner: string, updateFlag: string): ExpectMatchers;

/** The matchers `blocktrace/vitest`, `blocktrace/jest` and `blocktrace/bun` add to their runner's expect. */
export interface TraceMatchers<R> {
  /** The trace of `{ chain, tx }` or `{ chain, block }` against `__traces__/TEST_FILE/NAME.response.json`. */
  toMatchTraceSnapshot(name?: string): R;
  /** Gas used against `__traces__/TEST_FILE.gas`, within `tolerance` (gas, or `'2%'`). */
  toMatchGasSnapshot(name?: string, options?: GasSnapshotOptions): R;
}
