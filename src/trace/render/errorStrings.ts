// The one place where a neutral `Failure` becomes client wording: go-ethereum's EVM error texts
// (callTracer) and the Parity/revm vocabulary of reth's and anvil's trace_block.
import type { Failure } from '../types.ts';

/**
 * Neutral `reason` names of `{kind:'precompile'}` failures and go-ethereum's text for each
 * (core/vm/contracts.go v1.17.5; bn254 texts from crypto/bn256/gnark, fp texts from gnark-crypto).
 * The recorder maps ethereumjs' precompile errors onto these names; the ethereumjs message it
 * usually sees is given after each entry. A precompile that runs out of gas is `{kind:'outOfGas'}`.
 */
export const PRECOMPILE_REASONS: Readonly<Record<string, string>> = {
  /** blake2f (0x09), KZG (0x0a), BLS12-381 (0x0b–0x11, empty input included) — ethereumjs 'invalid input length', 'input is empty' */
  invalidInputLength: 'invalid input length',
  /** blake2f final-block flag not 0 or 1 — ethereumjs 'value out of range' */
  blake2fInvalidFinalFlag: 'invalid final flag',
  /** modexp with a length above 1024 bytes (EIP-7823, Osaka) */
  modexpInputTooLarge: 'one or more of base/exponent/modulus length exceeded 1024 bytes',
  /** bn254 pairing (0x08) with input length not a multiple of 192 — ethereumjs 'invalid input length' */
  bn254BadPairingSize: 'bad elliptic curve pairing size',
  /** bn254 coordinate ≥ field modulus — ethereumjs 'fp point not in field' */
  bn254FieldElementNotCanonical: 'invalid fp.Element encoding',
  /** bn254 point not on the curve */
  bn254NotOnCurve: 'point is not on curve',
  /** bn254 G2 point outside the prime-order subgroup */
  bn254NotInSubgroup: 'point is not in correct subgroup',
  /** BLS12-381 field element whose top 16 padding bytes are not zero */
  blsFieldElementTopBytes: 'invalid field element top bytes',
  /** BLS12-381 field element ≥ modulus — ethereumjs 'fp point not in field' */
  blsFieldElementNotCanonical: 'invalid fp.Element encoding',
  /** BLS12-381 point not on the curve — ethereumjs 'point not on curve' */
  blsNotOnCurve: 'invalid point: not on curve',
  blsG1NotInSubgroup: 'g1 point is not on correct subgroup',
  blsG2NotInSubgroup: 'g2 point is not on correct subgroup',
  /** KZG commitment does not hash to the versioned hash — ethereumjs 'kzg commitment does not match versioned hash' */
  kzgMismatchedVersion: 'mismatched versioned hash',
  /** KZG proof rejected (go-kzg-4844's text after the colon) — ethereumjs 'kzg proof invalid', 'kzg inputs invalid' */
  kzgProofFailed: 'error verifying kzg proof: can\'t verify opening proof',
};

// go-ethereum core/vm/opcodes.go (v1.17.5) opCodeToString: names it knows, active or not.
const NAMED: Readonly<Record<number, string>> = (() => {
  const t: Record<number, string> = {};
  const put = (start: number, names: string) => names.split(' ').forEach((n, i) => (t[start + i] = n));
  put(0x00, 'STOP ADD MUL SUB DIV SDIV MOD SMOD ADDMOD MULMOD EXP SIGNEXTEND');
  put(0x10, 'LT GT SLT SGT EQ ISZERO AND OR XOR NOT BYTE SHL SHR SAR CLZ');
  put(0x20, 'KECCAK256');
  put(0x30, 'ADDRESS BALANCE ORIGIN CALLER CALLVALUE CALLDATALOAD CALLDATASIZE CALLDATACOPY CODESIZE');
  put(0x39, 'CODECOPY GASPRICE EXTCODESIZE EXTCODECOPY RETURNDATASIZE RETURNDATACOPY EXTCODEHASH');
  put(0x40, 'BLOCKHASH COINBASE TIMESTAMP NUMBER DIFFICULTY GASLIMIT CHAINID SELFBALANCE BASEFEE');
  put(0x49, 'BLOBHASH BLOBBASEFEE SLOTNUM');
  put(0x50, 'POP MLOAD MSTORE MSTORE8 SLOAD SSTORE JUMP JUMPI PC MSIZE GAS JUMPDEST TLOAD TSTORE MCOPY PUSH0');
  for (let i = 1; i <= 32; i++) t[0x5f + i] = `PUSH${i}`;
  for (let i = 1; i <= 16; i++) t[0x7f + i] = `DUP${i}`;
  for (let i = 1; i <= 16; i++) t[0x8f + i] = `SWAP${i}`;
  for (let i = 0; i <= 4; i++) t[0xa0 + i] = `LOG${i}`;
  put(0xd0, 'DATALOAD DATALOADN DATASIZE DATACOPY');
  put(0xe0, 'RJUMP RJUMPI RJUMPV CALLF RETF JUMPF DUPN SWAPN EXCHANGE');
  t[0xec] = 'EOFCREATE';
  t[0xee] = 'RETURNCONTRACT';
  put(0xf0, 'CREATE CALL CALLCODE RETURN DELEGATECALL CREATE2');
  put(0xf7, 'RETURNDATALOAD EXTCALL EXTDELEGATECALL STATICCALL EXTSTATICCALL');
  put(0xfd, 'REVERT INVALID SELFDESTRUCT');
  return t;
})();

/** go-ethereum's `OpCode.String()`: the name, or `opcode 0x.. not defined` (Go's `%#x`, no padding). */
export function gethOpcodeName(op: number): string {
  return NAMED[op] ?? `opcode 0x${op.toString(16)} not defined`;
}

/** Opcodes go-ethereum names that revm does not (EOF's, never activated): revm writes them as unknown. */
const NOT_IN_REVM = new Set([0xd0, 0xd1, 0xd2, 0xd3, 0xe0, 0xe1, 0xe2, 0xe3, 0xe4, 0xe5, 0xec, 0xee, 0xf7, 0xf8, 0xf9, 0xfb]);

/** revm's `OpCode` Display (bytecode/src/opcode.rs): the name, or `UNKNOWN(0x..)` (two upper-case digits). */
export function revmOpcodeName(op: number): string {
  const name = NAMED[op];
  if (name === undefined || NOT_IN_REVM.has(op)) return `UNKNOWN(0x${op.toString(16).toUpperCase().padStart(2, '0')})`;
  return name;
}

// Opcodes whose static-context check go-ethereum ≥ 1.17.5 makes in the dynamic-gas function, so
// the interpreter wraps it as `out of gas: write protection` (core/vm/gas_table.go, interpreter.go):
// CREATE, CALL (with value), SSTORE, CREATE2, SELFDESTRUCT. LOG0–4 and TSTORE fail in the opcode.
const WRITE_PROTECTION_IN_GAS = new Set([0xf0, 0xf1, 0x55, 0xf5, 0xff]);

/** go-ethereum's error text for a failed frame (core/vm/errors.go, interpreter.go, contracts.go). */
export function gethError(f: Failure): string {
  switch (f.kind) {
    case 'reverted':
      return 'execution reverted';
    case 'outOfGas':
      return 'out of gas';
    case 'writeProtection':
      return WRITE_PROTECTION_IN_GAS.has(f.opcode) ? 'out of gas: write protection' : 'write protection';
    case 'invalidJump':
      return 'invalid jump destination';
    case 'invalidOpcode':
      return `invalid opcode: ${gethOpcodeName(f.opcode)}`;
    case 'stackUnderflow':
      return `stack underflow (${f.have} <=> ${f.need})`;
    case 'stackOverflow':
      return `stack limit reached ${f.have} (${f.limit})`;
    case 'insufficientBalance':
      return 'insufficient balance for transfer';
    case 'callDepth':
      return 'max call depth exceeded';
    case 'nonceOverflow':
      return 'nonce uint64 overflow';
    case 'createCollision':
      return 'contract address collision';
    case 'codeSizeExceeded':
      return `max code size exceeded: code size ${f.size} limit ${f.limit}`;
    case 'initCodeSizeExceeded':
      // Only reachable through CREATE/CREATE2's dynamic gas (gasCreateEip3860), hence the prefix;
      // an oversized deployment transaction is invalid and never traced.
      return `out of gas: max initcode size exceeded: code size ${f.size} limit ${f.limit}`;
    case 'codeStartsWithEF':
      return 'invalid code: must not begin with 0xef';
    case 'codeStoreOutOfGas':
      return 'contract creation code storage out of gas';
    case 'returnDataOutOfBounds':
      return 'return data out of bounds';
    case 'sstoreSentry':
      return 'out of gas: not enough gas for reentrancy sentry';
    case 'precompile':
      return PRECOMPILE_REASONS[f.reason] ?? f.reason;
    case 'other':
      return f.message;
  }
}

/**
 * go-ethereum's error on an opcode's struct log entry: the interpreter logs an opcode with its error
 * only when it fails before running (core/vm/interpreter.go Run: stack bounds, gas, and the checks of
 * the dynamic-gas functions); a static-context write found as LOG or TSTORE runs is the frame's alone.
 */
export function gethStepError(f: Failure): string | undefined {
  if (f.kind === 'writeProtection' && !WRITE_PROTECTION_IN_GAS.has(f.opcode)) return undefined;
  return gethError(f);
}

/**
 * The Parity-style error of reth/anvil trace_block: revm-inspectors src/tracing/utils.rs
 * `fmt_error_msg` with TraceStyle::Parity, whose fallback prints revm's `InstructionResult` name.
 */
export function parityError(f: Failure): string {
  switch (f.kind) {
    case 'reverted':
      return 'Reverted';
    case 'outOfGas':
    case 'codeStoreOutOfGas': // revm reports the code-deposit charge as plain OutOfGas
    case 'sstoreSentry': // ReentrancySentryOOG
      return 'Out of gas';
    case 'writeProtection':
      // revm interpreter instructions/contract.rs: a value CALL has its own result
      return f.opcode === 0xf1 ? 'CallNotAllowedInsideStatic' : 'StateChangeDuringStaticCall';
    case 'invalidJump':
      return 'Bad jump destination';
    case 'invalidOpcode':
      // InvalidFEOpcode and OpcodeNotFound alike; an opcode of a later fork is revm's NotActivated,
      // printed by its name (anvil 1.7.1 answers it on a Shanghai chain running MCOPY)
      return f.later === true ? 'NotActivated' : 'Bad instruction';
    case 'stackUnderflow':
      return 'StackUnderflow';
    case 'stackOverflow':
      return 'Out of stack';
    case 'insufficientBalance':
      return 'Insufficient balance for transfer';
    case 'callDepth':
      return 'CallTooDeep';
    case 'nonceOverflow':
      return 'NonceOverflow';
    case 'createCollision':
      return 'CreateCollision';
    case 'codeSizeExceeded':
      return 'CreateContractSizeLimit';
    case 'initCodeSizeExceeded':
      return 'CreateInitCodeSizeLimit';
    case 'codeStartsWithEF':
      return 'CreateContractStartingWithEF';
    case 'returnDataOutOfBounds':
      return 'OutOfOffset';
    case 'precompile':
      return 'Built-in failed';
    case 'other':
      return f.message;
  }
}
