import { describe, expect, test } from 'bun:test';
import { goJson } from '../../encoding/json.ts';
import type { Failure } from '../types.ts';
import { gethError, gethOpcodeName, parityError } from './errorStrings.ts';
import { decodeRevertReason, goUtf8 } from './revertReason.ts';

// [failure, go-ethereum text, Parity/revm text]
const TABLE: [Failure, string, string][] = [
  [{ kind: 'reverted' }, 'execution reverted', 'Reverted'],
  [{ kind: 'outOfGas' }, 'out of gas', 'Out of gas'],
  [{ kind: 'writeProtection', opcode: 0x55 }, 'out of gas: write protection', 'StateChangeDuringStaticCall'],
  [{ kind: 'writeProtection', opcode: 0xf1 }, 'out of gas: write protection', 'CallNotAllowedInsideStatic'],
  [{ kind: 'writeProtection', opcode: 0xf5 }, 'out of gas: write protection', 'StateChangeDuringStaticCall'],
  [{ kind: 'writeProtection', opcode: 0xa2 }, 'write protection', 'StateChangeDuringStaticCall'],
  [{ kind: 'writeProtection', opcode: 0x5d }, 'write protection', 'StateChangeDuringStaticCall'],
  [{ kind: 'invalidJump' }, 'invalid jump destination', 'Bad jump destination'],
  [{ kind: 'invalidOpcode', opcode: 0xfe }, 'invalid opcode: INVALID', 'Bad instruction'],
  [{ kind: 'invalidOpcode', opcode: 0x5f }, 'invalid opcode: PUSH0', 'Bad instruction'],
  [{ kind: 'invalidOpcode', opcode: 0x5e, later: true }, 'invalid opcode: MCOPY', 'NotActivated'],
  [{ kind: 'invalidOpcode', opcode: 0xef }, 'invalid opcode: opcode 0xef not defined', 'Bad instruction'],
  [{ kind: 'invalidOpcode', opcode: 0x0c }, 'invalid opcode: opcode 0xc not defined', 'Bad instruction'],
  [{ kind: 'stackUnderflow', have: 0, need: 2 }, 'stack underflow (0 <=> 2)', 'StackUnderflow'],
  [{ kind: 'stackOverflow', have: 1024, limit: 1023 }, 'stack limit reached 1024 (1023)', 'Out of stack'],
  [{ kind: 'insufficientBalance' }, 'insufficient balance for transfer', 'Insufficient balance for transfer'],
  [{ kind: 'callDepth' }, 'max call depth exceeded', 'CallTooDeep'],
  [{ kind: 'nonceOverflow' }, 'nonce uint64 overflow', 'NonceOverflow'],
  [{ kind: 'createCollision' }, 'contract address collision', 'CreateCollision'],
  [{ kind: 'codeSizeExceeded', size: 24577, limit: 24576 }, 'max code size exceeded: code size 24577 limit 24576', 'CreateContractSizeLimit'],
  [{ kind: 'initCodeSizeExceeded', size: 49153, limit: 49152 }, 'out of gas: max initcode size exceeded: code size 49153 limit 49152', 'CreateInitCodeSizeLimit'],
  [{ kind: 'codeStartsWithEF' }, 'invalid code: must not begin with 0xef', 'CreateContractStartingWithEF'],
  [{ kind: 'codeStoreOutOfGas' }, 'contract creation code storage out of gas', 'Out of gas'],
  [{ kind: 'returnDataOutOfBounds' }, 'return data out of bounds', 'OutOfOffset'],
  [{ kind: 'sstoreSentry' }, 'out of gas: not enough gas for reentrancy sentry', 'Out of gas'],
  [{ kind: 'precompile', reason: 'invalidInputLength' }, 'invalid input length', 'Built-in failed'],
  [{ kind: 'precompile', reason: 'bn254BadPairingSize' }, 'bad elliptic curve pairing size', 'Built-in failed'],
  [{ kind: 'precompile', reason: 'blsNotOnCurve' }, 'invalid point: not on curve', 'Built-in failed'],
  [{ kind: 'other', message: 'something new' }, 'something new', 'something new'],
];

describe('error tables', () => {
  test.each(TABLE)('%j', (failure, geth, parity) => {
    expect(gethError(failure)).toBe(geth);
    expect(parityError(failure)).toBe(parity);
  });

  test('stack underflow is written with Go escapes', () => {
    expect(goJson(gethError({ kind: 'stackUnderflow', have: 0, need: 5 }))).toBe('"stack underflow (0 \\u003c=\\u003e 5)"');
  });

  test('opcode names follow core/vm/opcodes.go', () => {
    expect([0x00, 0x1e, 0x20, 0x44, 0x4b, 0x60, 0x7f, 0x80, 0x9f, 0xa4, 0xf4, 0xfa, 0xff].map(gethOpcodeName)).toEqual([
      'STOP', 'CLZ', 'KECCAK256', 'DIFFICULTY', 'SLOTNUM', 'PUSH1', 'PUSH32', 'DUP1', 'SWAP16', 'LOG4', 'DELEGATECALL', 'STATICCALL', 'SELFDESTRUCT',
    ]);
    expect(gethOpcodeName(0xa5)).toBe('opcode 0xa5 not defined');
  });
});

const word = (n: number | bigint) => n.toString(16).padStart(64, '0');
const errorPayload = (hex: string, len = hex.length / 2) => '0x08c379a0' + word(32) + word(len) + hex.padEnd(Math.ceil(hex.length / 64) * 64, '0');
const b = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));

describe('revertReason (accounts/abi UnpackRevert)', () => {
  test('Error(string)', () => {
    expect(decodeRevertReason(b(errorPayload(Buffer.from('Bomb: constructor reverted').toString('hex'))))).toBe('Bomb: constructor reverted');
    expect(decodeRevertReason(b(errorPayload('')))).toBe('');
  });

  test('Panic(uint256), known and unknown codes', () => {
    expect(decodeRevertReason(b('0x4e487b71' + word(0x32)))).toBe('out-of-bounds access of an array or bytesN');
    expect(decodeRevertReason(b('0x4e487b71' + word(0x99)))).toBe('unknown panic code: 0x99');
    expect(decodeRevertReason(b('0x4e487b71' + word(1).slice(2)))).toBeUndefined();
  });

  test('malformed or foreign payloads give nothing', () => {
    expect(decodeRevertReason(b('0x08c379a0'))).toBeUndefined();
    expect(decodeRevertReason(b('0x08c379a0' + word(64) + word(1)))).toBeUndefined(); // offset past the end
    expect(decodeRevertReason(b('0x08c379a0' + word(32) + word(40) + 'aa'.repeat(32)))).toBeUndefined(); // length past the end
    expect(decodeRevertReason(b('0x12345678' + word(32)))).toBeUndefined();
    expect(decodeRevertReason(b('0x08c3'))).toBeUndefined();
  });

  test('invalid UTF-8: one marker per bad byte (written \\ufffd by goJson), as Go', () => {
    expect(goUtf8(b('61e282' + '41'))).toBe('a\udfff\udfffA');
    expect(goUtf8(b('eda080'))).toBe('\udfff\udfff\udfff'); // surrogate
    expect(goUtf8(b('c0af'))).toBe('\udfff\udfff'); // overlong
    expect(goUtf8(b('e282acf09f9880'))).toBe('€😀');
    expect(decodeRevertReason(b(errorPayload('ff41', 2)))).toBe('\udfffA');
  });
});
