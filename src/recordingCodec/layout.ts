// The tables the kept-recording encoder and decoder share (the layout is described in
// encodeRecording.ts): call kinds, and each Failure kind with its fields in order.
import type { CallKind, Failure } from '../trace/types.ts';

/** Format version, the first byte of every encoded recording. */
export const VERSION = 1;

export const KINDS: readonly CallKind[] = ['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT'];
export const KIND_CODE: ReadonlyMap<CallKind, number> = new Map(KINDS.map((k, i) => [k, i]));

/** Frame head bits, above the kind's three. */
export const HAS_TO = 1 << 3;
export const HAS_CREATE_ADDRESS = 1 << 4;
export const PRECOMPILE = 1 << 5;
export const HAS_FAILURE = 1 << 6;
export const HAS_LOGS = 1 << 7;

/** Transaction flag bits. */
export const EIP6780 = 1;

/** How an input is stored (trace/inputPatches.ts). */
export const INPUT_BYTES = 0;
export const INPUT_SAME_AS_BASE = 1;
export const INPUT_PATCHED_BASE = 2;

/** A field of a Failure: a number, a text, or an optional boolean. */
type FieldType<V> = V extends string ? 'text' : V extends number ? 'num' : 'flag';
type FieldsOf<F> = { [P in Exclude<keyof F, 'kind'>]-?: readonly [P, FieldType<F[P]>] }[Exclude<keyof F, 'kind'>];
type FailureFields = { readonly [K in Failure['kind']]: readonly FieldsOf<Extract<Failure, { kind: K }>>[] };

/**
 * Every kind of Failure (the type makes a new kind a compile error here until it is listed) with its
 * fields in the order they are written.
 */
export const FAILURE_FIELDS: FailureFields = {
  reverted: [],
  outOfGas: [],
  writeProtection: [['opcode', 'num']],
  invalidJump: [],
  invalidOpcode: [['opcode', 'num'], ['later', 'flag']],
  stackUnderflow: [['have', 'num'], ['need', 'num']],
  stackOverflow: [['have', 'num'], ['limit', 'num']],
  insufficientBalance: [],
  callDepth: [],
  nonceOverflow: [],
  createCollision: [],
  codeSizeExceeded: [['size', 'num'], ['limit', 'num']],
  initCodeSizeExceeded: [['size', 'num'], ['limit', 'num']],
  codeStartsWithEF: [],
  codeStoreOutOfGas: [],
  returnDataOutOfBounds: [],
  sstoreSentry: [],
  precompile: [['reason', 'text']],
  other: [['message', 'text']],
};

export const FAILURE_KINDS = Object.keys(FAILURE_FIELDS) as Failure['kind'][];
export const FAILURE_CODE: ReadonlyMap<Failure['kind'], number> = new Map(FAILURE_KINDS.map((k, i) => [k, i]));

/** An optional boolean: absent, true or false. */
export const FLAG_ABSENT = 0;
export const FLAG_TRUE = 1;
export const FLAG_FALSE = 2;
