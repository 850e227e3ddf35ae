// ethereumjs's exceptional-halt errors turned into neutral Failures (part of the recorder: the only
// place that reads ethereumjs error texts). Wording for clients is in trace/render/errorStrings.ts.
import type { ExecResult } from '@ethereumjs/evm';
import { EVMError } from '@ethereumjs/evm';
import { Hardfork, type Common } from '@ethereumjs/common';
import type { CallFrame, Failure } from '../trace/types.ts';
import { STACK_SHAPE } from './stackShape.ts';

const M = EVMError.errorMessages;
const SSTORE = 0x55;
const RETURN = 0xf3;

/** What of a frame tells its failure apart. */
export type FailedFrame = Pick<CallFrame, 'kind' | 'to' | 'input' | 'precompile'>;

interface HaltState {
  opCode?: number;
  gasLeft?: bigint;
  programCounter?: number;
  code?: Uint8Array;
  stack?: { length: number };
  returnValue?: Uint8Array;
}

/**
 * @param sstoreGasLeft gas left when an SSTORE's gas check failed in this frame, if one did.
 */
export function failureOf(exec: ExecResult, frame: FailedFrame, common: Common, sstoreGasLeft: bigint | undefined): Failure | undefined {
  const error = exec.exceptionError;
  if (error === undefined) return undefined;
  // ethereumjs appends the location to some texts ("invalid JUMP at <hash>/<address>:<pc>").
  const text = error.error.split(' at ')[0]!;
  if (frame.precompile) return precompileFailure(text, frame);
  const rs = (exec as { runState?: HaltState }).runState;
  const opcode = rs?.opCode ?? 0;
  const stackLength = rs?.stack?.length ?? 0;
  const [inputs, outputs] = STACK_SHAPE[opcode] ?? [0, 0];
  const create = frame.kind === 'CREATE' || frame.kind === 'CREATE2';
  switch (text) {
    case M.REVERT:
      return { kind: 'reverted' };
    case M.OUT_OF_GAS:
      // EIP-2200: an SSTORE with no more than the call stipend left fails the reentrancy sentry.
      if (opcode === SSTORE && sstoreGasLeft !== undefined && common.gteHardfork(Hardfork.Istanbul) && sstoreGasLeft <= 2300n) {
        return { kind: 'sstoreSentry' };
      }
      // The init code returned, then the code deposit could not be paid (Homestead and later).
      if (create && opcode === RETURN && rs?.returnValue !== undefined) return { kind: 'codeStoreOutOfGas' };
      return { kind: 'outOfGas' };
    case M.STATIC_STATE_CHANGE:
      return { kind: 'writeProtection', opcode };
    case M.INVALID_JUMP:
      return { kind: 'invalidJump' };
    case M.INVALID_OPCODE: {
      // runState.opCode holds the table entry's code, which is INVALID (0xfe) for a byte the fork
      // lacks when the interpreter runs from its analysed code; the byte itself is at the counter.
      const byte = rs?.code?.[rs.programCounter ?? -1] ?? opcode;
      return introducedLater(byte, common) ? { kind: 'invalidOpcode', opcode: byte, later: true } : { kind: 'invalidOpcode', opcode: byte };
    }
    case M.STACK_UNDERFLOW:
      return { kind: 'stackUnderflow', have: stackLength, need: inputs };
    case M.STACK_OVERFLOW:
      return { kind: 'stackOverflow', have: stackLength, limit: 1024 + inputs - outputs };
    case M.CREATE_COLLISION:
      return { kind: 'createCollision' };
    case M.CODESIZE_EXCEEDS_MAXIMUM:
      return { kind: 'codeSizeExceeded', size: rs?.returnValue?.length ?? 0, limit: Number(common.param('maxCodeSize')) };
    case M.INITCODE_SIZE_VIOLATION:
      return { kind: 'initCodeSizeExceeded', size: frame.input.length, limit: Number(common.param('maxInitCodeSize')) };
    case M.INVALID_BYTECODE_RESULT:
      return { kind: 'codeStartsWithEF' };
    case M.CODESTORE_OUT_OF_GAS:
      // Frontier: a contract that cannot pay for its code is created empty, not failed.
      return common.hardfork() === Hardfork.Chainstart ? undefined : { kind: 'codeStoreOutOfGas' };
    case M.OUT_OF_RANGE:
      return { kind: 'returnDataOutOfBounds' };
    case M.INSUFFICIENT_BALANCE:
      return { kind: 'insufficientBalance' };
    default:
      return { kind: 'other', message: text };
  }
}

/**
 * Without the recorder's SSTORE gas hook: the gas left when a frame halted out of gas on an SSTORE
 * whose gas check threw (the EIP-2200 sentry; a plain shortfall leaves 0 gas).
 */
export function sstoreGasLeftAtHalt(exec: ExecResult): bigint | undefined {
  const rs = (exec as { runState?: HaltState }).runState;
  return rs?.opCode === SSTORE && rs.gasLeft !== undefined && rs.gasLeft > 0n ? rs.gasLeft : undefined;
}

/** A precompile's failure as one of the neutral reasons of trace/render/errorStrings.ts PRECOMPILE_REASONS. */
function precompileFailure(text: string, frame: FailedFrame): Failure {
  if (text === M.OUT_OF_GAS) return { kind: 'outOfGas' };
  const id = frame.to?.[19] ?? 0;
  const bn254 = id >= 0x06 && id <= 0x08;
  const bls = id >= 0x0b && id <= 0x11;
  switch (text) {
    case M.INVALID_INPUT_LENGTH: // also BLS_12_381_INVALID_INPUT_LENGTH (same text)
    case M.BLS_12_381_INPUT_EMPTY:
      if (id === 0x08) return { kind: 'precompile', reason: 'bn254BadPairingSize' };
      if (id === 0x05) return { kind: 'precompile', reason: 'modexpInputTooLarge' };
      return { kind: 'precompile', reason: 'invalidInputLength' };
    case M.OUT_OF_RANGE:
      // blake2f uses it for a wrong input length (213 bytes) and for a final flag not 0 or 1
      return { kind: 'precompile', reason: frame.input.length === 213 ? 'blake2fInvalidFinalFlag' : 'invalidInputLength' };
    case M.BN254_FP_NOT_IN_FIELD: // also BLS_12_381_FP_NOT_IN_FIELD (same text)
      return { kind: 'precompile', reason: bn254 ? 'bn254FieldElementNotCanonical' : 'blsFieldElementNotCanonical' };
    case M.BLS_12_381_POINT_NOT_ON_CURVE:
      return { kind: 'precompile', reason: bls ? 'blsFieldElementTopBytes' : 'bn254NotOnCurve' };
    case M.INVALID_COMMITMENT:
      return { kind: 'precompile', reason: 'kzgMismatchedVersion' };
    case M.INVALID_INPUTS:
    case M.INVALID_PROOF:
      return { kind: 'precompile', reason: 'kzgProofFailed' };
    default:
      // bn254 and BLS12-381 wrap their library's errors as REVERT: the point was not valid.
      if (bn254) return { kind: 'precompile', reason: 'bn254NotOnCurve' };
      if (bls) return { kind: 'precompile', reason: 'blsNotOnCurve' };
      return { kind: 'precompile', reason: text };
  }
}

// The fork that brought each opcode after Frontier (the Yellow Paper's table and the EIPs).
const INTRODUCED: Readonly<Record<number, Hardfork>> = {
  0xf4: Hardfork.Homestead,
  0x3d: Hardfork.Byzantium, 0x3e: Hardfork.Byzantium, 0xfa: Hardfork.Byzantium, 0xfd: Hardfork.Byzantium,
  0x1b: Hardfork.Constantinople, 0x1c: Hardfork.Constantinople, 0x1d: Hardfork.Constantinople,
  0x3f: Hardfork.Constantinople, 0xf5: Hardfork.Constantinople,
  0x46: Hardfork.Istanbul, 0x47: Hardfork.Istanbul,
  0x48: Hardfork.London,
  0x5f: Hardfork.Shanghai,
  0x49: Hardfork.Cancun, 0x4a: Hardfork.Cancun, 0x5c: Hardfork.Cancun, 0x5d: Hardfork.Cancun, 0x5e: Hardfork.Cancun,
  0x1e: Hardfork.Osaka,
};

/** An opcode this fork does not have yet but a later one does. */
function introducedLater(opcode: number, common: Common): boolean {
  const fork = INTRODUCED[opcode];
  return fork !== undefined && !common.gteHardfork(fork);
}

/**
 * Why an opcode fails before it runs, judged as go-ethereum's interpreter does before it logs the
 * opcode (core/vm/interpreter.go Run: the stack bounds, then the static gas): undefined for an opcode
 * that may run. An undefined opcode has no bounds and costs nothing there (it fails as it runs).
 */
export function stackOrGasFailure(op: number, stackLength: number, fee: bigint, gasLeft: bigint): Failure | undefined {
  const [inputs, outputs] = STACK_SHAPE[op] ?? [0, 0];
  if (stackLength < inputs) return { kind: 'stackUnderflow', have: stackLength, need: inputs };
  const limit = 1024 + inputs - outputs;
  if (stackLength > limit) return { kind: 'stackOverflow', have: stackLength, limit };
  if (fee > gasLeft) return { kind: 'outOfGas' };
  return undefined;
}

/**
 * The failure an opcode's gas handler threw (out of gas, a static-context write, the EIP-2200 sentry,
 * an oversized initcode), as a neutral Failure; undefined when `error` is not the EVM's (a defect,
 * or a sink that stopped the run), which the caller rethrows untouched.
 */
export function gasHandlerFailure(error: unknown, op: number, gasLeft: bigint, initCodeSize: bigint, common: Common): Failure | undefined {
  if (!(error instanceof EVMError)) return undefined;
  const text = error.error.split(' at ')[0]!;
  switch (text) {
    case M.OUT_OF_GAS:
      // EIP-2200: an SSTORE with no more than the call stipend left fails the reentrancy sentry.
      return op === SSTORE && common.gteHardfork(Hardfork.Istanbul) && gasLeft <= 2300n ? { kind: 'sstoreSentry' } : { kind: 'outOfGas' };
    case M.STATIC_STATE_CHANGE:
      return { kind: 'writeProtection', opcode: op };
    case M.INITCODE_SIZE_VIOLATION:
      return { kind: 'initCodeSizeExceeded', size: Number(initCodeSize), limit: Number(common.param('maxInitCodeSize')) };
    default:
      return { kind: 'other', message: text };
  }
}
