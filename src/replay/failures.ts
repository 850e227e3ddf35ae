// ethereumjs's exceptional-halt errors turned into neutral Failures (part of the recorder: the only
// place that reads ethereumjs error texts). Wording for clients is in trace/render/errorStrings.ts.
import type { ExecResult } from '@ethereumjs/evm';
import { EVMError } from '@ethereumjs/evm';
import { Hardfork, type Common } from '@ethereumjs/common';
import type { CallFrame, Failure } from '../trace/types.ts';
import { STACK_SHAPE } from './stackShape.ts';

const M = EVMError.errorMessages;
const SSTORE = 0x55;

interface HaltState {
  opCode?: number;
  stack?: { length: number };
  gasLeft?: bigint;
}

export function failureOf(exec: ExecResult, frame: CallFrame, common: Common): Failure | undefined {
  const error = exec.exceptionError;
  if (error === undefined) return undefined;
  const rs = (exec as { runState?: HaltState }).runState;
  const opcode = rs?.opCode ?? 0;
  const stackLength = rs?.stack?.length ?? 0;
  const [inputs, outputs] = STACK_SHAPE[opcode] ?? [0, 0];
  switch (error.error) {
    case M.REVERT:
      return { kind: 'reverted' };
    case M.OUT_OF_GAS:
      if (frame.precompile) return { kind: 'outOfGas' };
      // EIP-2200: SSTORE with no more than the call stipend left fails the reentrancy sentry.
      if (opcode === SSTORE && common.isActivatedEIP(2200) && (rs?.gasLeft ?? 0n) <= 2300n) return { kind: 'sstoreSentry' };
      return { kind: 'outOfGas' };
    case M.STATIC_STATE_CHANGE:
      return { kind: 'writeProtection', opcode };
    case M.INVALID_JUMP:
      return { kind: 'invalidJump' };
    case M.INVALID_OPCODE:
      return { kind: 'invalidOpcode', opcode };
    case M.STACK_UNDERFLOW:
      return { kind: 'stackUnderflow', have: stackLength, need: inputs };
    case M.STACK_OVERFLOW:
      return { kind: 'stackOverflow', have: stackLength, limit: 1024 + inputs - outputs };
    case M.CREATE_COLLISION:
      return { kind: 'createCollision' };
    case M.CODESIZE_EXCEEDS_MAXIMUM:
      return { kind: 'codeSizeExceeded', size: exec.returnValue.length, limit: Number(common.param('maxCodeSize')) };
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
      if (frame.precompile) return { kind: 'precompile', reason: error.error };
      return { kind: 'other', message: error.error };
  }
}
