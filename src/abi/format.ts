// Decoded values as people read them in a terminal or a report: addresses checksummed, long hex cut
// with its length, strings quoted, tuples as `(name: value, …)`. Shared by `show`, the viewer and
// `check`'s report.
import { getAddress } from 'viem';
import type { AbiDecoder, Decoded } from './decoder.ts';
import { panicText } from './panic.ts';

export function shortHex(hex: string, keep = 66): string {
  return hex.length <= keep ? hex : `${hex.slice(0, keep)}…(${(hex.length - 2) / 2} bytes)`;
}

export function formatValue(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') {
    if (/^0x[0-9a-fA-F]{40}$/.test(value)) return getAddress(value);
    if (/^0x[0-9a-fA-F]*$/.test(value)) return shortHex(value);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(formatValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `(${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${k}: ${formatValue(v)}`).join(', ')})`;
  }
  return String(value);
}

/** `name: value, …` (a nameless argument as its value alone). */
export function formatArgs(d: Decoded): string {
  return d.args.map(([name, v]) => (name === '' ? formatValue(v) : `${name}: ${formatValue(v)}`)).join(', ');
}

/** `name(args)`. */
export const formatDecoded = (d: Decoded): string => `${d.name}(${formatArgs(d)})`;

/** A decoded revert: a panic as Foundry prints it (`panic: division or modulo by zero (0x12)`), any other error as `name(args)`. */
export function formatRevert(d: Decoded): string {
  const [only] = d.args;
  return d.name === 'Panic' && d.args.length === 1 && typeof only?.[1] === 'bigint' ? panicText(only[1]) : formatDecoded(d);
}

/**
 * Why a frame reverted, for a person: a panic with its code and meaning (go-ethereum's `revertReason`
 * has the meaning alone), else go-ethereum's reason (an Error(string)'s message), else the error
 * the ABIs decode; undefined when nothing does.
 */
export function revertText(decoder: AbiDecoder, output: string, gethReason: string | undefined): string | undefined {
  const d = decoder.revert(output);
  if (d !== undefined && d.name === 'Panic') return formatRevert(d);
  return gethReason ?? (d === undefined ? undefined : formatRevert(d));
}
