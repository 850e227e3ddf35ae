// The opcode step stream (trace/types.ts OpcodeStep), part of the recorder. While a watched
// transaction runs, the EVM looks its opcodes up in a stepping table (opcodeHooks.ts steppingTable)
// whose gas handlers hand each opcode to the sink as it is reached, after its gas is known and before
// it is charged: where go-ethereum's interpreter calls OnOpcode (core/vm/interpreter.go Run). Between
// watched transactions the EVM runs from its own table and pays nothing for this.
import type { Common } from '@ethereumjs/common';
import type { EVM, EVMResult } from '@ethereumjs/evm';
import type { VM } from '@ethereumjs/vm';
import { Address, bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';
import type { Failure, StepSink } from '../trace/types.ts';
import { maybeYield } from './cooperative.ts';
import { gasHandlerFailure, stackOrGasFailure } from './failures.ts';
import { type GasHandler, OP, type OpEntry, opcodeTable, type RunState, stackAddress, type SteppedGas, steppingTable, useOpcodeTable } from './opcodeHooks.ts';

const CALLS = new Set<number>([OP.CALL, OP.CALLCODE, OP.DELEGATECALL, OP.STATICCALL]);
const EXTCODE = new Set<number>([OP.EXTCODESIZE, OP.EXTCODECOPY, OP.EXTCODEHASH]);
/** Opcodes after which a frame is over without running off its code: STOP, RETURN, REVERT, SELFDESTRUCT. */
const HALTS = new Set([0x00, 0xf3, 0xfd, 0xff]);
const NO_ITEMS: readonly bigint[] = [];
const NO_BYTES = new Uint8Array();

export class StepRecorder {
  private sink: StepSink | undefined;
  /** The EVM's own table while a stepping one stands in for it. */
  private own: OpEntry[] | undefined;
  private readonly stepping = new WeakMap<OpEntry[], OpEntry[]>();
  /** Per open frame, the last opcode stepped in it (-1: none yet). */
  private lastOps: number[] = [];
  /** What the sink threw where the run could not be stopped at once; thrown at the next opcode. */
  private stopped: unknown;
  private count = 0;

  /** @param currentFrame index of the running frame in the transaction's arena */
  constructor(private readonly vm: VM, private readonly currentFrame: () => number) {}

  get watching(): boolean {
    return this.sink !== undefined;
  }

  /** The steps of the transaction about to run go to `sink`. */
  watch(sink: StepSink): void {
    const evm = this.vm.evm as EVM;
    const own = opcodeTable(evm);
    let table = this.stepping.get(own);
    if (table === undefined) this.stepping.set(own, (table = steppingTable(own, this.gas)));
    useOpcodeTable(evm, table);
    this.own = own;
    this.sink = sink;
    this.lastOps = [];
  }

  /** Back to the EVM's own table. Returns what the sink threw that has not stopped the run yet. */
  unwatch(): unknown {
    if (this.own !== undefined) useOpcodeTable(this.vm.evm as EVM, this.own);
    this.own = undefined;
    this.sink = undefined;
    const stopped = this.stopped;
    this.stopped = undefined;
    return stopped;
  }

  enter(): void {
    if (this.sink !== undefined) this.lastOps.push(-1);
  }

  /**
   * A frame ends. One that ran off the end of its code stops at the STOP past it, which go-ethereum
   * steps through (Contract.GetOp gives STOP there); ethereumjs just leaves its loop.
   */
  exit(result: EVMResult): void {
    if (this.sink === undefined) return;
    const last = this.lastOps[this.lastOps.length - 1];
    const exec = result.execResult;
    const rs = (exec as { runState?: RunState }).runState;
    if (last !== undefined && last >= 0 && !HALTS.has(last) && exec.exceptionError === undefined && rs !== undefined) {
      try {
        this.emit(rs, rs.programCounter, 0, rs.gasLeft, 0n, rs.memoryWordCount, undefined, undefined, undefined);
      } catch (error) {
        this.stopped ??= error;
      }
    }
    this.lastOps.pop();
  }

  /**
   * The stepping table's gas handler of every opcode (opcodeHooks.ts SteppedGas). Synchronous unless
   * the opcode's own gas handler, a state read for the sink or a turn of the event loop is not.
   */
  private readonly gas: SteppedGas = (rs, fee, common, dynamic, invalid) => {
    if (this.stopped !== undefined) throw this.stopped;
    const turn = (++this.count & 1023) === 0 ? maybeYield() : undefined;
    if (turn !== undefined) return turn.then(() => this.measure(rs, fee, common, dynamic, invalid));
    return this.measure(rs, fee, common, dynamic, invalid);
  };

  private measure(rs: RunState, fee: bigint, common: unknown, dynamic: GasHandler | undefined, invalid: boolean): Promise<bigint> | bigint {
    const pc = rs.programCounter;
    const op = rs.code[pc] ?? 0;
    // go-ethereum: an undefined opcode has no stack bounds and no gas; it fails as it runs
    const base = invalid ? 0n : fee;
    const early = invalid ? undefined : stackOrGasFailure(op, rs.stack.length, base, rs.gasLeft);
    if (early !== undefined || dynamic === undefined) {
      // the EVM then fails on its own (a stack error as the opcode runs, the charge out of gas)
      const pending = this.report(rs, op, pc, rs.gasLeft, rs.memoryWordCount, base, early);
      // most steps: a static-gas opcode reported at once (no object or closure made for them)
      if (pending === undefined && dynamic === undefined) return fee;
      const charge = (): Promise<bigint> | bigint => (dynamic === undefined ? fee : dynamic(rs, fee, common));
      return after(pending, charge);
    }
    // the gas handler raises the memory's word count: what the step shows is the count before it
    const at: Reached = { rs, op, pc, gasLeft: rs.gasLeft, words: rs.memoryWordCount };
    let charged: Promise<bigint> | bigint;
    try {
      charged = dynamic(rs, fee, common);
    } catch (error) {
      return this.refused(at, base, common, error);
    }
    if (charged instanceof Promise) return charged.then((gas) => this.charged(at, gas), (error: unknown) => this.refused(at, base, common, error));
    return this.charged(at, charged);
  }

  /** The opcode's gas is known: go-ethereum counts the gas handed to a callee in a CALL's cost (gas_table.go gasCall: callGasTemp). */
  private charged(at: Reached, charge: bigint): Promise<bigint> | bigint {
    const cost = CALLS.has(at.op) ? charge + (at.rs.messageGasLimit ?? 0n) : charge;
    const pending = this.report(at.rs, at.op, at.pc, at.gasLeft, at.words, cost, charge > at.gasLeft ? { kind: 'outOfGas' } : undefined);
    return pending === undefined ? charge : pending.then(() => charge);
  }

  /** The opcode's gas handler threw: a failure before it runs, or not the EVM's (rethrown untouched). */
  private refused(at: Reached, base: bigint, common: unknown, error: unknown): Promise<never> {
    const failure = gasHandlerFailure(error, at.op, at.gasLeft, initCodeSize(at.rs, at.op), common as Common);
    if (failure === undefined) throw error;
    return Promise.resolve(this.report(at.rs, at.op, at.pc, at.gasLeft, at.words, base, failure)).then(() => {
      throw error;
    });
  }

  /** Hands the sink the step, after reading what it needs from the state (the only asynchronous part). */
  private report(rs: RunState, op: number, pc: number, gasLeft: bigint, words: bigint, cost: bigint, failure: Failure | undefined): Promise<void> | undefined {
    const needs = this.sink!.needs;
    // a sink that reads no state (the debugger's first pass, most tracers): no lookups per step
    if (!needs.slotValues && needs.storedValues !== true && !needs.codeSizes) {
      this.emit(rs, pc, op, gasLeft, cost, words, failure, undefined, undefined);
      return undefined;
    }
    const state = this.vm.stateManager;
    const target = EXTCODE.has(op) ? 0 : CALLS.has(op) ? 1 : -1;
    const loads = rs.stack.length >= 1 && ((needs.slotValues && op === OP.SLOAD) || (needs.storedValues === true && op === OP.SSTORE));
    const sizes = needs.codeSizes && target >= 0 && rs.stack.length > target;
    if (!loads && !sizes) {
      this.emit(rs, pc, op, gasLeft, cost, words, failure, undefined, undefined);
      return undefined;
    }
    return (async () => {
      const value = loads ? bytesToBigInt(await state.getStorage(rs.env.address, setLengthLeft(bigIntToBytes(rs.stack.peek(1)[0]!), 32))) : undefined;
      const codeSize = sizes ? (await state.getCode(new Address(stackAddress(rs.stack.peek(target + 1)[target]!)))).length : undefined;
      if (op === OP.SSTORE) this.emit(rs, pc, op, gasLeft, cost, words, failure, undefined, codeSize, value);
      else this.emit(rs, pc, op, gasLeft, cost, words, failure, value, codeSize);
    })();
  }

  private emit(
    rs: RunState, pc: number, op: number, gas: bigint, cost: bigint, words: bigint,
    failure: Failure | undefined, loaded: bigint | undefined, codeSize: number | undefined, overwritten?: bigint,
  ): void {
    const sink = this.sink!;
    const needs = sink.needs;
    if (this.lastOps.length > 0) this.lastOps[this.lastOps.length - 1] = op;
    sink.step({
      pc,
      op,
      gas,
      cost,
      depth: rs.env.depth,
      frame: this.currentFrame(),
      refund: rs.gasRefund,
      address: rs.env.address.bytes,
      code: rs.code,
      stack: needs.stack || needs.stackWhen?.() === true ? rs.stack.getStack() : NO_ITEMS,
      memory: needs.memory ? memoryOf(rs, words) : NO_BYTES,
      returnData: needs.returnData ? rs.returnBytes : NO_BYTES,
      loaded,
      overwritten,
      codeSize,
      failure,
    });
  }
}

/** An opcode as the interpreter reached it, before its gas was charged. */
interface Reached {
  readonly rs: RunState;
  readonly op: number;
  readonly pc: number;
  readonly gasLeft: bigint;
  /** Memory size in words before the opcode (its gas handler raises the count). */
  readonly words: bigint;
}

/** `next()` once `pending` (if any) is done. */
function after<T>(pending: Promise<void> | undefined, next: () => Promise<T> | T): Promise<T> | T {
  return pending === undefined ? next() : pending.then(next);
}

/** The frame's memory of `words` words (ethereumjs grows its buffer in blocks and extends it lazily). */
function memoryOf(rs: RunState, words: bigint): Uint8Array {
  const size = Number(words) * 32;
  const store = rs.memory._store;
  if (store.length >= size) return store.subarray(0, size);
  const out = new Uint8Array(size);
  out.set(store);
  return out;
}

/** CREATE/CREATE2's initcode length (for its size-limit failure). */
function initCodeSize(rs: RunState, op: number): bigint {
  if ((op !== OP.CREATE && op !== OP.CREATE2) || rs.stack.length < 3) return 0n;
  return rs.stack.peek(3)[2]!;
}
