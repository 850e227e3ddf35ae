// What revm's step_end sees of an op, where it is not what the recorder's step says: the gas the op
// took (CallTraceStep.gas_cost, the gas left before it less the gas left after) and, for an op that
// fails, the stack it leaves. revm's instructions (revm-interpreter instructions/*.rs at 17a323d)
// charge in a fixed order, and only a plain out-of-gas spends all that is left
// (interpreter.rs `halt`: `if result == OutOfGas { self.gas.spend_all() }`); a memory expansion that
// cannot be paid is MemoryOOG and an operand past 64 bits InvalidOperandOOG, which spend nothing more.
import type { OpcodeStep } from '../types.ts';

const CREATES = new Set([0xf0, 0xf5]);
const U64 = 1n << 64n;
const words = (len: bigint): bigint => (len + 31n) / 32n;

/** The op's memory length: a stack item (its position from the top) or a constant. */
type Length = number | bigint;

/**
 * Ops whose gas before the memory expansion revm charges first (static, then the per-word or
 * per-byte cost): an op that cannot pay its memory stops at what it paid before it. With each, where
 * its length is and that gas; `invalid` is what it paid when the length is past 64 bits.
 */
const BEFORE_MEMORY = new Map<number, { readonly len: Length; readonly paid: (len: bigint) => bigint; readonly invalid: bigint }>([
  [0x51, { len: 32n, paid: () => 3n, invalid: 3n }], // MLOAD
  [0x52, { len: 32n, paid: () => 3n, invalid: 3n }], // MSTORE
  [0x53, { len: 1n, paid: () => 3n, invalid: 3n }], // MSTORE8
  [0xf3, { len: 1, paid: () => 0n, invalid: 0n }], // RETURN
  [0xfd, { len: 1, paid: () => 0n, invalid: 0n }], // REVERT
  [0x20, { len: 1, paid: (len) => 30n + 6n * words(len), invalid: 30n }], // KECCAK256
  [0x37, { len: 2, paid: (len) => 3n + 3n * words(len), invalid: 3n }], // CALLDATACOPY
  [0x39, { len: 2, paid: (len) => 3n + 3n * words(len), invalid: 3n }], // CODECOPY
  [0x3e, { len: 2, paid: (len) => 3n + 3n * words(len), invalid: 3n }], // RETURNDATACOPY
  [0x5e, { len: 2, paid: (len) => 3n + 3n * words(len), invalid: 3n }], // MCOPY
]);

/**
 * Ops whose warm access (100) revm charges from its static gas table from Berlin on
 * (instructions.rs gas_table_spec) and ethereumjs in their dynamic gas, its static gas 0: one that
 * finds too few stack items has paid it in revm, nothing in the step.
 */
const WARM_BASE = new Set([0x31, 0x3b, 0x3c, 0x3f, 0x54, 0xf1, 0xf2, 0xf4, 0xfa]);

/** CallTraceStep.gas_cost of the op. */
export function vmTraceCost(step: OpcodeStep): bigint {
  if (step.failure?.kind === 'outOfGas') return outOfGasCost(step);
  if (step.failure?.kind === 'stackUnderflow' && WARM_BASE.has(step.op) && step.cost === 0n) return 100n;
  if (step.failure !== undefined || !CREATES.has(step.op)) return step.cost;
  // CREATE/CREATE2 hand all but a 64th of what is left to the new frame before step_end (EIP-150)
  const left = step.gas - step.cost;
  return step.cost + left - left / 64n;
}

/** An op that could not pay: all that was left, unless it failed on its memory or an operand. */
function outOfGasCost(step: OpcodeStep): bigint {
  const rule = BEFORE_MEMORY.get(step.op);
  const { stack } = step;
  if (rule === undefined) return step.gas;
  const len = typeof rule.len === 'bigint' ? rule.len : stack[stack.length - 1 - rule.len];
  if (len === undefined) return step.gas;
  if (len >= U64) return rule.invalid;
  const paid = rule.paid(len);
  return paid > step.gas ? step.gas : paid;
}

/** Ops revm pops from before it can fail on their gas, and how many (popn_top!: KECCAK256, EXP). */
const POPPED_FIRST: Readonly<Record<number, number>> = { 0x20: 1, 0x0a: 1 };

/** The stack revm leaves when the op fails: as it was, less what the op popped before failing. */
export function stackLeft(step: OpcodeStep): readonly bigint[] {
  const popped = step.failure?.kind === 'outOfGas' ? (POPPED_FIRST[step.op] ?? 0) : 0;
  return popped === 0 ? step.stack : step.stack.slice(0, Math.max(0, step.stack.length - popped));
}
