// The ONLY module that knows ethereumjs event and interpreter shapes. It turns a transaction's
// execution into the neutral call arena and state log of trace/types.ts. It records between
// beforeTx and afterTx only, so the block's system calls (EIP-2935/4788/7002/7251) stay untraced.
//
// Message events give frames; a few opcode handlers are wrapped (never changing what they do) for
// what messages do not tell: the exact call kind, calls that fail before they start, SELFDESTRUCT
// frames, log positions, and the accounts and slots touched (go-ethereum prestate.go OnOpcode).
// With a step sink (a tracer that watches every opcode), the transactions it watches also hand it
// each opcode as it is reached (stepRecorder.ts).
import type { EVM, EVMResult, Message } from '@ethereumjs/evm';
import type { TypedTransaction } from '@ethereumjs/tx';
import type { VM } from '@ethereumjs/vm';
import type { Block } from '@ethereumjs/block';
import {
  bigIntToBytes,
  bigIntToUnpaddedBytes,
  generateAddress,
  generateAddress2,
  setLengthLeft,
} from '@ethereumjs/util';
import type { CallFrame, CallKind, RecordedLog, StepSink, TxRecording } from '../trace/types.ts';
import type { KeptInput } from '../trace/inputPatches.ts';
import { CallInputs } from './callInputs.ts';
import { failureOf } from './failures.ts';
import { failedLogs, newFrame, returnedCode } from './frames.ts';
import { hookOpcodes, memoryView, OP, type OpHandler, type RunState, stackAddress } from './opcodeHooks.ts';
import { StateTracker } from './stateTracker.ts';
import { StepRecorder } from './stepRecorder.ts';

const { CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2, SELFDESTRUCT, SLOAD, SSTORE } = OP;
const { BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, LOG0, LOG4 } = OP;
const KIND_OF: Record<number, CallKind> = {
  [CALL]: 'CALL', [CALLCODE]: 'CALLCODE', [DELEGATECALL]: 'DELEGATECALL', [STATICCALL]: 'STATICCALL',
  [CREATE]: 'CREATE', [CREATE2]: 'CREATE2',
};
/** The opcodes the recorder sees only to record the state they read (prestateTracer's StateLog). */
const STATE_READS: ReadonlySet<number> = new Set([SLOAD, SSTORE, BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH]);
/** The opcodes whose handlers the recorder sees. */
const HOOKED = [
  CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2, SELFDESTRUCT, SLOAD, SSTORE,
  BALANCE, EXTCODESIZE, EXTCODECOPY, EXTCODEHASH, LOG0, LOG0 + 1, LOG0 + 2, LOG0 + 3, LOG4,
];

/** A call opened by an opcode, waiting for its message (or for the opcode to give up). */
interface PendingCall {
  kind: CallKind;
  from: Uint8Array;
  to: Uint8Array | undefined;
  value: bigint;
  input: KeptInput;
  depth: number;
  opened: boolean;
}

export class Recorder {
  private active = false;
  private frames: CallFrame[] = [];
  private stack: number[] = [];
  private pending: PendingCall | undefined;
  /** Inputs of calls and creates opened by opcodes, a repeated one kept once (callInputs.ts). */
  private readonly inputs = new CallInputs();
  private logSeq = new Map<RecordedLog, number>();
  private seq = 0;
  private state: StateTracker | undefined;
  private tx: { tx: TypedTransaction; index: number; intrinsic: bigint } | undefined;
  private block: Block | undefined;
  private blockLogIndex = 0;
  private txIndex = 0;
  private results: TxRecording[] = [];
  /** Where the opcode steps of watched transactions go, when a tracer asks for them. */
  private sink: StepSink | undefined;
  private readonly stepper: StepRecorder;

  constructor(private readonly vm: VM) {
    const evm = vm.evm as EVM;
    this.stepper = new StepRecorder(vm, () => this.stack[this.stack.length - 1] ?? -1);
    hookOpcodes(evm, HOOKED, {
      recording: () => this.tx !== undefined,
      wants: (code) => this.withState || !STATE_READS.has(code),
      onOpcode: (code, rs, common, original) => this.onOpcode(code, rs, common, original),
      onSstoreGasFailure: (gasLeft) => {
        this.sstoreGasLeft = gasLeft;
      },
    });
  }

  // Listeners are attached only while recording: a plain replay (the load) pays nothing for them.
  // The transaction ones take `resolve` so ethereumjs awaits their state reads; the message ones are
  // synchronous and take none.
  private readonly onBeforeTx = (tx: TypedTransaction, resolve?: (r?: unknown) => void): void => {
    this.beforeTx(tx).then(() => resolve?.(), (e) => { this.fail(e); resolve?.(); });
  };
  private readonly onAfterTx = (event: unknown, resolve?: (r?: unknown) => void): void => {
    this.afterTx(event as AfterTx).then(() => resolve?.(), (e) => { this.fail(e); resolve?.(); });
  };
  private readonly onBeforeMessage = (message: Message): void => this.beforeMessage(message);
  private readonly onAfterMessage = (result: EVMResult): void => this.afterMessage(result);

  private listen(on: boolean): void {
    const vmEvents = this.vm.events;
    const evmEvents = (this.vm.evm as EVM).events!;
    if (on) {
      vmEvents.on('beforeTx', this.onBeforeTx);
      vmEvents.on('afterTx', this.onAfterTx);
      evmEvents.on('beforeMessage', this.onBeforeMessage);
      evmEvents.on('afterMessage', this.onAfterMessage);
    } else {
      vmEvents.off('beforeTx', this.onBeforeTx);
      vmEvents.off('afterTx', this.onAfterTx);
      evmEvents.off('beforeMessage', this.onBeforeMessage);
      evmEvents.off('afterMessage', this.onAfterMessage);
    }
  }

  private withState = true;
  private error: unknown;
  private fail(error: unknown): void {
    this.error ??= error;
  }

  /**
   * @param withState also record the accounts and slots touched (the prestate tracer's StateLog).
   * @param sink where the opcode steps of the transactions it watches go.
   */
  start(block: Block, withState = true, sink?: StepSink): void {
    this.withState = withState;
    this.sink = sink;
    this.listen(true);
    this.active = true;
    this.block = block;
    this.blockLogIndex = 0;
    this.txIndex = 0;
    this.results = [];
    this.error = undefined;
  }

  finish(): TxRecording[] {
    this.listen(false);
    this.active = false;
    this.block = undefined;
    // a run stopped midway (by a sink) leaves its transaction open
    this.tx = undefined;
    this.state = undefined;
    this.sink = undefined;
    const stopped = this.stepper.unwatch();
    if (stopped !== undefined) this.fail(stopped);
    if (this.error !== undefined) throw this.error;
    return this.results;
  }

  // ---- transactions ---------------------------------------------------------------------------

  private async beforeTx(tx: TypedTransaction): Promise<void> {
    if (!this.active || this.block === undefined) return;
    await this.yieldNow();
    this.frames = [];
    this.stack = [];
    this.pending = undefined;
    this.logSeq = new Map();
    this.seq = 0;
    const sm = this.vm.stateManager;
    const rules = this.vm.common;
    this.state = new StateTracker(sm, rules.isActivatedEIP(6780), this.withState);
    this.tx = { tx, index: this.txIndex++, intrinsic: tx.getIntrinsicGas() };
    const sender = tx.getSenderAddress();
    await this.state.lookupAccount(sender.bytes);
    if (tx.to !== undefined) {
      await this.state.lookupAccount(tx.to.bytes);
    } else {
      const account = await sm.getAccount(sender);
      const addr = createAddressBytes(sender.bytes, account?.nonce ?? 0n);
      await this.state.lookupAccount(addr);
      this.state.markCreated(addr);
    }
    await this.state.lookupAccount(this.block.header.coinbase.bytes);
    await this.state.lookupAuthorities(tx, rules.isActivatedEIP(7702));
    const index = this.tx.index;
    if (this.sink?.watches(index) === true) {
      this.sink.begin(index);
      this.stepper.watch(this.sink);
    }
  }

  private async afterTx(event: AfterTx): Promise<void> {
    if (!this.active || this.tx === undefined || this.state === undefined) return;
    const { tx, index, intrinsic } = this.tx;
    const root = this.frames[0];
    if (root !== undefined) root.gasUsed = event.totalGasSpent;
    // Block-wide log indexes for the logs that survived (receipt order = emission order).
    const survivors = [...this.logSeq.entries()]
      .filter(([, s]) => s >= 0)
      .sort((a, b) => a[1] - b[1])
      .map(([log]) => log);
    const dropped = new Set<RecordedLog>(failedLogs(this.frames));
    for (const log of survivors) log.index = dropped.has(log) ? -1 : this.blockLogIndex++;
    await this.state.finish();
    const recording: TxRecording = {
      txIndex: index,
      txHash: tx.hash(),
      txType: tx.type,
      gasLimit: tx.gasLimit,
      intrinsicGas: intrinsic,
      gasUsed: event.totalGasSpent,
      gasUsedBeforeRefund: event.execResult.executionGasUsed + intrinsic,
      refund: event.gasRefund ?? 0n,
      frames: this.frames,
      state: this.state.log(),
    };
    this.results.push(recording);
    this.tx = undefined;
    this.state = undefined;
    if (this.stepper.watching) {
      const stopped = this.stepper.unwatch();
      if (stopped !== undefined) throw stopped;
      this.sink!.end(recording);
    }
  }

  // ---- frames ---------------------------------------------------------------------------------

  private beforeMessage(message: Message): void {
    if (this.tx === undefined) return;
    const depth = message.depth;
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1]! : -1;
    let kind: CallKind, from: Uint8Array, to: Uint8Array | undefined, value: bigint, input: KeptInput;
    const pending = this.pending;
    if (depth > 0 && pending !== undefined && pending.depth === depth && !pending.opened) {
      pending.opened = true;
      ({ kind, from, to, value, input } = pending);
    } else {
      kind = message.to === undefined ? 'CREATE' : 'CALL';
      from = message.caller.bytes;
      to = message.to?.bytes;
      value = message.value;
      input = message.data;
    }
    const codeAddress = message.to === undefined ? undefined : (message.codeAddress ?? message.to);
    const frame = newFrame(this.frames.length, parent, depth, kind, from, to, value, message.gasLimit, input);
    frame.precompile = codeAddress !== undefined && this.vm.evm.precompiles.has(codeAddress.toString().slice(2));
    if (depth === 0) {
      const tx = this.tx.tx;
      (frame as { gas: bigint }).gas = tx.gasLimit;
    }
    this.frames.push(frame);
    if (parent >= 0) this.frames[parent]!.children.push(frame.index);
    this.stack.push(frame.index);
    this.stepper.enter();
  }

  private afterMessage(result: EVMResult): void {
    if (this.tx === undefined) return;
    this.stepper.exit(result);
    const index = this.stack.pop();
    if (index === undefined) return;
    const frame = this.frames[index]!;
    const exec = result.execResult;
    frame.gasUsed = exec.executionGasUsed;
    frame.output = exec.returnValue;
    frame.failure = failureOf(exec, frame, this.vm.common, this.sstoreGasLeft);
    this.sstoreGasLeft = undefined;
    if (frame.kind === 'CREATE' || frame.kind === 'CREATE2') {
      // Frontier keeps a contract whose code could not be paid for, and shows the code returned.
      if (frame.failure === undefined && frame.output.length === 0) frame.output = returnedCode(exec) ?? frame.output;
      if (result.createdAddress !== undefined) frame.createAddress = result.createdAddress.bytes;
      frame.to = frame.failure === undefined ? result.createdAddress?.bytes : undefined;
      if (result.createdAddress !== undefined && frame.failure === undefined) this.state?.markCreated(result.createdAddress.bytes);
    }
  }

  // ---- opcodes --------------------------------------------------------------------------------

  /** Gas left when an SSTORE's gas check failed in the running frame (EIP-2200's reentrancy sentry). */
  private sstoreGasLeft: bigint | undefined;

  private steps = 0;
  private lastYield = 0;

  /**
   * Lets the event loop serve other requests (and their deadlines) during a long recording: between
   * transactions and every few hundred hooked opcodes, at most once per 5 ms.
   */
  private async yieldNow(): Promise<void> {
    const now = performance.now();
    if (now - this.lastYield < 5) return;
    this.lastYield = now;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  private async onOpcode(code: number, rs: RunState, common: unknown, original: OpHandler): Promise<unknown> {
    if (++this.steps % 256 === 0) await this.yieldNow();
    const state = this.state!;
    const self = rs.env.address.bytes;
    if (code === SLOAD || code === SSTORE) {
      await state.lookupStorage(self, rs.stack.peek(1)[0]!);
      return original(rs, common);
    }
    if (code === BALANCE || code === EXTCODESIZE || code === EXTCODECOPY || code === EXTCODEHASH) {
      await state.lookupAccount(stackAddress(rs.stack.peek(1)[0]!));
      return original(rs, common);
    }
    if (code >= LOG0 && code <= LOG4) {
      const logs = rs.interpreter._result.logs;
      const before = logs.length;
      const out = original(rs, common);
      if (logs.length > before) this.recordLog(logs[logs.length - 1]!);
      return out;
    }
    if (code === SELFDESTRUCT) return this.onSelfDestruct(rs, common, original);
    return this.onCall(code, rs, common, original);
  }

  private recordLog([address, topics, data]: [Uint8Array, Uint8Array[], Uint8Array]): void {
    const current = this.frames[this.stack[this.stack.length - 1]!]!;
    const log: RecordedLog = { address, topics, data, position: current.children.length, index: -1 };
    current.logs.push(log);
    this.logSeq.set(log, this.seq++);
  }

  private async onSelfDestruct(rs: RunState, common: unknown, original: OpHandler): Promise<unknown> {
    const state = this.state!;
    const self = rs.env.address.bytes;
    const beneficiary = stackAddress(rs.stack.peek(1)[0]!);
    await state.lookupAccount(beneficiary);
    state.markSelfDestructed(self);
    const balance = (await this.vm.stateManager.getAccount(rs.env.address))?.balance ?? 0n;
    const parent = this.stack[this.stack.length - 1]!;
    const frame = newFrame(this.frames.length, parent, rs.env.depth + 1, 'SELFDESTRUCT', self, beneficiary, balance, 0n, new Uint8Array());
    this.frames.push(frame);
    this.frames[parent]!.children.push(frame.index);
    return original(rs, common);
  }

  private async onCall(code: number, rs: RunState, common: unknown, original: OpHandler): Promise<unknown> {
    const state = this.state!;
    const kind = KIND_OF[code]!;
    const self = rs.env.address.bytes;
    const args = rs.stack.peek(code === CREATE2 ? 4 : code === CREATE ? 3 : code === CALL || code === CALLCODE ? 7 : 6);
    let to: Uint8Array | undefined, value: bigint, input: KeptInput;
    if (kind === 'CREATE' || kind === 'CREATE2') {
      value = args[0]!;
      const initCode = memoryView(rs, args[1]!, args[2]!);
      to = kind === 'CREATE2' ? create2AddressBytes(self, args[3]!, initCode) : undefined;
      input = this.inputs.keep(initCode);
      const account = await this.vm.stateManager.getAccount(rs.env.address);
      to ??= createAddressBytes(self, account?.nonce ?? 0n);
      await state.lookupAccount(to);
      state.markCreated(to);
    } else {
      to = stackAddress(args[1]!);
      const withValue = code === CALL || code === CALLCODE;
      value = withValue ? args[2]! : code === DELEGATECALL ? rs.env.callValue : 0n;
      input = this.inputs.keep(withValue ? memoryView(rs, args[3]!, args[4]!) : memoryView(rs, args[2]!, args[3]!));
      await state.lookupAccount(to);
      await state.lookupDelegationTarget(to, this.vm.common.isActivatedEIP(7702));
    }
    const pending: PendingCall = { kind, from: self, to, value, input, depth: rs.env.depth + 1, opened: false };
    const stipend = (code === CALL || code === CALLCODE) && value > 0n ? BigInt((this.vm.common as { param(n: string): bigint }).param('callStipendGas')) : 0n;
    const gas = (rs.messageGasLimit ?? 0n) + stipend;
    const outer = this.pending;
    this.pending = pending;
    const out = await original(rs, common);
    this.pending = outer;
    if (!pending.opened) await this.recordRejectedCall(pending, rs, gas);
    return out;
  }

  /** A call or create the EVM refused before any message (depth, balance, nonce): go-ethereum still shows a frame. */
  private async recordRejectedCall(pending: PendingCall, rs: RunState, gas: bigint): Promise<void> {
    const balance = (await this.vm.stateManager.getAccount(rs.env.address))?.balance ?? 0n;
    const parent = this.stack[this.stack.length - 1]!;
    const create = pending.kind === 'CREATE' || pending.kind === 'CREATE2';
    const frame = newFrame(this.frames.length, parent, pending.depth, pending.kind, pending.from, create ? undefined : pending.to, pending.value, gas, pending.input);
    if (create) frame.createAddress = pending.to;
    frame.failure = rs.env.depth + 1 > 1024
      ? { kind: 'callDepth' }
      : pending.kind === 'DELEGATECALL' || pending.kind === 'STATICCALL' || balance >= pending.value
        ? { kind: 'nonceOverflow' }
        : { kind: 'insufficientBalance' };
    frame.gasUsed = 0n;
    this.frames.push(frame);
    this.frames[parent]!.children.push(frame.index);
  }
}

interface AfterTx {
  totalGasSpent: bigint;
  gasRefund?: bigint;
  execResult: { executionGasUsed: bigint };
}


function createAddressBytes(from: Uint8Array, nonce: bigint): Uint8Array {
  return generateAddress(from, bigIntToUnpaddedBytes(nonce));
}

function create2AddressBytes(from: Uint8Array, salt: bigint, initCode: Uint8Array): Uint8Array {
  return generateAddress2(from, setLengthLeft(bigIntToBytes(salt), 32), initCode);
}
