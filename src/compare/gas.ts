// Gas as people read it: a value the comparison knows measures gas (by its member's name, in every
// answer shape: a frame's gas and gasUsed, a flat trace's, a struct log's gasCost, a receipt's or a
// block's) is shown in decimal, grouped as the call tree shows it, with its change. Pure.
import type { Difference, PathStep } from './types.ts';

const GAS_KEYS = new Set(['gas', 'gasUsed', 'gasCost', 'gasLimit', 'cumulativeGasUsed', 'blobGasUsed', 'excessBlobGas']);

/** Whether the value at `steps` measures gas. */
export const isGas = (steps: readonly PathStep[]): boolean => {
  const key = steps.at(-1);
  return typeof key === 'string' && GAS_KEYS.has(key);
};

/** A gas amount from its JSON text: a hex quantity (`"0x5208"`) or a number (struct logs); undefined for anything else. */
function amount(json: string): bigint | undefined {
  const hex = /^"(0x[0-9a-fA-F]{1,64})"$/.exec(json);
  if (hex !== null) return BigInt(hex[1]!);
  return /^\d{1,78}$/.test(json) ? BigInt(json) : undefined;
}

/** Both sides of a gas difference as amounts; undefined when it is not gas or a side is not an amount (missing, null). */
export function gasAmounts(d: Pick<Difference, 'quantity' | 'expected' | 'got'>): readonly [bigint, bigint] | undefined {
  if (d.quantity !== 'gas') return undefined;
  const a = amount(d.expected);
  const b = amount(d.got);
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** `21,000` */
export const grouped = (n: bigint): string => n.toLocaleString('en');

/** `+2,100`, `-12`, `the same` */
export const signedChange = (delta: bigint): string => (delta === 0n ? 'the same' : `${delta > 0n ? '+' : ''}${grouped(delta)}`);

/** `21,000 → 23,100 (+2,100)` */
export const gasChange = ([a, b]: readonly [bigint, bigint]): string => `${grouped(a)} → ${grouped(b)} (${signedChange(b - a)})`;
