import { expect, test } from 'bun:test';
import type { KeptInput } from '../trace/inputPatches.ts';
import { CallInputs } from './callInputs.ts';

const read = (kept: KeptInput): Uint8Array => (typeof kept === 'function' ? kept() : kept);

test('an input is kept whole, then shared when repeated, then as a patch when a few bytes change; never aliasing memory', () => {
  const inputs = new CallInputs();
  const memory = new Uint8Array(50_000).map((_, i) => i % 251);
  const first = inputs.keep(memory);
  expect(first).toBeInstanceOf(Uint8Array);
  expect(inputs.keep(memory)).toBe(first);
  memory[0x80] = 7;
  memory[49_999] = 9;
  const second = inputs.keep(memory);
  expect(typeof second).toBe('function');
  expect(read(second)).toEqual(memory);
  const copy = memory.slice();
  memory.fill(1, 0, 100);
  expect(read(second)).toEqual(copy);
  expect(read(first)[0x80]).toBe(0x80 % 251);
});

test('an input that differs in many places, or has another length, becomes the new base; a small one is copied', () => {
  const inputs = new CallInputs();
  const a = new Uint8Array(8192);
  const base = inputs.keep(a);
  const b = a.map((_, i) => (i % 2 === 0 ? 1 : 0));
  const other = inputs.keep(b);
  expect(other).toBeInstanceOf(Uint8Array);
  expect(other).not.toBe(base);
  expect(inputs.keep(b)).toBe(other);
  expect(inputs.keep(new Uint8Array(8000))).toBeInstanceOf(Uint8Array);
  const small = new Uint8Array(100).fill(3);
  const kept = inputs.keep(small);
  small[0] = 0;
  expect(read(kept)).toEqual(new Uint8Array(100).fill(3));
});
