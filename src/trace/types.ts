// Neutral recording types: what the recorder writes and every renderer reads.
// bigint and bytes only; hex and client wording belong to the renderers (trace/render/*).

/** How a frame was entered: the opcode (or the transaction) that opened it. */
export type CallKind =
  | 'CALL'
  | 'CALLCODE'
  | 'DELEGATECALL'
  | 'STATICCALL'
  | 'CREATE'
  | 'CREATE2'
  | 'SELFDESTRUCT';

/**
 * Why a frame failed, independent of any client's wording. The two tables that turn these into
 * text live in trace/render/errorStrings.ts (go-ethereum and Parity/revm vocabularies).
 */
export type Failure =
  | { readonly kind: 'reverted' }
  | { readonly kind: 'outOfGas' }
  /** Static-context state change. `inGas` when go-ethereum detects it in dynamic gas (SSTORE, value CALL, SELFDESTRUCT, CREATE*). */
  | { readonly kind: 'writeProtection'; readonly opcode: number }
  | { readonly kind: 'invalidJump' }
  /** `later`: the opcode exists, in a fork after the block's (revm's NotActivated). */
  | { readonly kind: 'invalidOpcode'; readonly opcode: number; readonly later?: boolean }
  | { readonly kind: 'stackUnderflow'; readonly have: number; readonly need: number }
  | { readonly kind: 'stackOverflow'; readonly have: number; readonly limit: number }
  | { readonly kind: 'insufficientBalance' }
  | { readonly kind: 'callDepth' }
  | { readonly kind: 'nonceOverflow' }
  | { readonly kind: 'createCollision' }
  | { readonly kind: 'codeSizeExceeded'; readonly size: number; readonly limit: number }
  | { readonly kind: 'initCodeSizeExceeded'; readonly size: number; readonly limit: number }
  | { readonly kind: 'codeStartsWithEF' }
  | { readonly kind: 'codeStoreOutOfGas' }
  | { readonly kind: 'returnDataOutOfBounds' }
  | { readonly kind: 'sstoreSentry' }
  /** A precompile rejected its input; `reason` is the neutral cause (e.g. 'invalidInputLength'). */
  | { readonly kind: 'precompile'; readonly reason: string }
  | { readonly kind: 'other'; readonly message: string };

export interface RecordedLog {
  readonly address: Uint8Array;
  readonly topics: readonly Uint8Array[];
  readonly data: Uint8Array;
  /** Number of child frames of the emitting frame opened before this log (go-ethereum's `position`). */
  readonly position: number;
  /** Block-wide log index (receipt `logIndex`); set at tx end for logs that survived, else -1. */
  index: number;
}

/** One frame of a transaction's call tree. Root is index 0; `parent` is -1 for the root. */
export interface CallFrame {
  readonly index: number;
  readonly parent: number;
  readonly depth: number;
  readonly kind: CallKind;
  readonly from: Uint8Array;
  /** Callee, created address, or SELFDESTRUCT beneficiary; undefined for a CREATE that failed. */
  to: Uint8Array | undefined;
  /**
   * CREATE/CREATE2 only: the address the creation targeted, kept when it failed too (set it for
   * every create). reth/anvil trace_block print it in a reverted create's result
   * (revm-inspectors types.rs parity_trace_output uses the address computed at the start).
   */
  createAddress?: Uint8Array;
  /**
   * Apparent value: the amount transferred for CALL/CALLCODE/CREATE*, the inherited value of the
   * caller frame for DELEGATECALL, 0 for STATICCALL, the destroyed balance for SELFDESTRUCT.
   */
  readonly value: bigint;
  /** Gas handed to the frame (after the 63/64 rule, stipend included). */
  readonly gas: bigint;
  gasUsed: bigint;
  readonly input: Uint8Array;
  /** Return data (deployed code for a successful CREATE). */
  output: Uint8Array;
  failure: Failure | undefined;
  /** True for a call into a precompiled contract. */
  precompile: boolean;
  readonly children: number[];
  readonly logs: RecordedLog[];
}

/** An account as seen at one moment. */
export interface AccountState {
  readonly balance: bigint;
  readonly nonce: bigint;
  readonly code: Uint8Array;
  readonly codeHash: Uint8Array;
  /** true when nonce = 0, balance = 0 and code empty (EIP-161 empty). */
  readonly empty: boolean;
}

/** First-touch record of one account: its state then, and the slots touched with their values then. */
export interface TouchedAccount {
  readonly address: Uint8Array;
  readonly pre: AccountState;
  /** slot (32 bytes as lowercase hex key without 0x) → value at first touch. */
  readonly preStorage: Map<string, bigint>;
  /** State at transaction end (after fees and refunds). */
  post: AccountState | undefined;
  /** slot → value at transaction end, for every touched slot. */
  readonly postStorage: Map<string, bigint>;
  /**
   * Whether the account exists in the state at transaction end, read where go-ethereum's
   * debug_trace* reads it: after StateDB.Finalise (self-destructed accounts and, from EIP-158,
   * touched empty accounts removed; ethereumjs runTx does the same cleanup). A never-existing
   * account that was only looked up is false; a reverted CREATE target is false. prestateTracer
   * diff mode needs it: geth's GetCodeHash gives the zero hash, not keccak(''), for a missing
   * account (eth/tracers/native/prestate.go processDiffState).
   */
  existsAfter: boolean;
}

/** What a transaction read and wrote, keyed by lowercase address hex without 0x. */
export interface StateLog {
  readonly accounts: Map<string, TouchedAccount>;
  /** Accounts that executed SELFDESTRUCT (keys as in `accounts`). */
  readonly selfDestructed: Set<string>;
  /** Accounts created by this transaction (top-level or CREATE/CREATE2). */
  readonly created: Set<string>;
  /**
   * EIP-6780 (Cancun) SELFDESTRUCT rules are active for the block. prestateTracer diff mode then
   * treats a self-destructed account as deleted only if it is also in `created`
   * (go-ethereum eth/tracers/native/prestate.go OnOpcode, IsCancun(number, time)).
   * For that rule `selfDestructed` and `created` are meant as go-ethereum's prestate tracer sees
   * them: a SELFDESTRUCT / CREATE / CREATE2 opcode that passed its gas checks counts even if its
   * frame later reverts or the creation fails (the tracer marks them in OnOpcode, before execution).
   */
  readonly eip6780: boolean;
}

export interface TxRecording {
  readonly txIndex: number;
  readonly txHash: Uint8Array;
  /** Transaction type (0 legacy, 1, 2, 3, 4). */
  readonly txType: number;
  readonly gasLimit: bigint;
  /** Intrinsic gas charged before execution (incl. access list, authorizations, initcode words). */
  readonly intrinsicGas: bigint;
  /** Receipt gasUsed: net of refund, floored by EIP-7623 where active. */
  readonly gasUsed: bigint;
  /** Gas used including intrinsic gas, before refund and before the EIP-7623 floor. */
  readonly gasUsedBeforeRefund: bigint;
  readonly refund: bigint;
  /** Frames in creation order (depth first, parent before children). frames[0] is the top call. */
  readonly frames: CallFrame[];
  readonly state: StateLog;
}

/** A block reward paid at the end of a pre-merge block. */
export interface BlockReward {
  readonly author: Uint8Array;
  readonly kind: 'block' | 'uncle';
  readonly value: bigint;
}

export interface BlockRecording {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly txs: readonly TxRecording[];
  /** Empty after the merge. Block reward first, then one per uncle in header order. */
  readonly rewards: readonly BlockReward[];
  /**
   * A traced call (debug_traceCall), not the block's own transactions: go-ethereum hands its tracer
   * an empty Context then (eth/tracers/api.go TraceCall, `new(Context)`): no block hash, number or
   * transaction hash.
   */
  readonly call?: boolean;
}

// ---- the opcode step stream ---------------------------------------------------------------------
// Beside the call arena, switched on only for a tracer that asks (the struct logger, erc7562Tracer):
// the recorder hands every opcode of a watched transaction to a sink as it is reached, and the sink
// renders it at once; nothing of a step is kept after the call.

/** What each step must carry beyond pc, opcode, gas, cost, depth, refund, frame and failure. */
export interface StepNeeds {
  /** The stack, bottom first. */
  readonly stack: boolean;
  /** The memory as it is before the opcode runs. */
  readonly memory: boolean;
  /** The return data of the frame's last call. */
  readonly returnData: boolean;
  /** SLOAD: the slot's current value (`loaded`). */
  readonly slotValues: boolean;
  /** EXTCODE* and CALL-family: the code size of the account named on the stack (`codeSize`). */
  readonly codeSizes: boolean;
  /** SSTORE: the slot's value before the write (`overwritten`; the source-level debugger). */
  readonly storedValues?: boolean;
  /** Without `stack`: asked before each step, the stack of those steps it says yes to (the debugger's function entries). */
  readonly stackWhen?: () => boolean;
}

/**
 * One opcode as it is reached, before it runs (go-ethereum's OnOpcode). Arrays and bytes are views
 * valid only during the sink's call; what is not in `StepNeeds` is empty.
 */
export interface OpcodeStep {
  readonly pc: number;
  /** The byte at `pc`; 0 (STOP) past the end of the code, where a frame that runs off its code stops. */
  readonly op: number;
  /** Gas left before the opcode. */
  readonly gas: bigint;
  /**
   * What the opcode costs: its static and dynamic gas, and for the CALL family the gas handed to the
   * callee without the stipend (go-ethereum core/vm/interpreter.go, gas_table.go gasCall). For an
   * opcode that fails before it runs, the gas counted up to the failure (at least its static gas).
   */
  readonly cost: bigint;
  /** Call depth of the frame, 0 for the transaction's own. */
  readonly depth: number;
  /** Index of the running frame in TxRecording.frames. */
  readonly frame: number;
  /** The transaction's refund counter so far. */
  readonly refund: bigint;
  /** The account whose storage the code runs on (ADDRESS). */
  readonly address: Uint8Array;
  /** The code that runs: the callee's (a DELEGATECALL runs the callee's code on the caller's account), a creation's init code. */
  readonly code: Uint8Array;
  readonly stack: readonly bigint[];
  readonly memory: Uint8Array;
  readonly returnData: Uint8Array;
  /** SLOAD with a slot on the stack: the slot's value before it runs. */
  readonly loaded: bigint | undefined;
  /** SSTORE with a slot on the stack, when `storedValues` is asked: the slot's value before the write. */
  readonly overwritten: bigint | undefined;
  /** EXTCODESIZE, EXTCODECOPY, EXTCODEHASH and the CALL family: the code size of the account they name. */
  readonly codeSize: number | undefined;
  /**
   * Set when the opcode fails before it runs: too few or too many stack items, not enough gas for
   * its cost, or a check of its gas computation (EIP-2200 sentry, static-context write, initcode size).
   * A failure while it runs (REVERT, a bad jump, an undefined opcode) is the frame's, not the step's.
   */
  readonly failure: Failure | undefined;
}

/** Where the recorder sends the steps of a run (a renderer that writes as it goes). */
export interface StepSink {
  readonly needs: StepNeeds;
  /** Whether transaction `txIndex` of the run is watched; the others run without steps. */
  watches(txIndex: number): boolean;
  /** The only transaction watched, where it is one: the run ends after it (those after it are not run). */
  readonly only?: number | undefined;
  /** A watched transaction starts. */
  begin(txIndex: number): void;
  /** May throw to stop the run (the answer grew too large, the deadline passed). */
  step(step: OpcodeStep): void;
  /** A watched transaction ended; its recording (frames, gas, outputs). */
  end(tx: TxRecording): void;
}
