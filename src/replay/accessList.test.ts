// go-ethereum eth/tracers/logger/access_list_tracer.go, rule by rule.
import { expect, test } from 'bun:test';
import { hexToBytes } from '@ethereumjs/util';
import { AccessListTracker } from './accessList.ts';
import { OP } from './opcodeHooks.ts';

const A = (n: number) => hexToBytes(`0x${n.toString(16).padStart(40, '0')}`);
const word = (hex: string) => BigInt(`0x${hex}`);
const own = A(0xcc);
const excluded = new Set(['00000000000000000000000000000000000000ee', '0000000000000000000000000000000000000001']);
/** A step over `stack`, bottom first. */
const step = (op: number, address: Uint8Array, stack: bigint[]) => ({ op, address, stackSize: stack.length, top: stack.slice(-2).reverse(), gasLeft: 0n });
const render = (t: AccessListTracker) =>
  t.accessList().map((e) => [Buffer.from(e.address).toString('hex').slice(-4), e.storageKeys.map((k) => BigInt(`0x${Buffer.from(k).toString('hex')}`))]);

test('SLOAD/SSTORE add the top word as a slot of the frame, excluded or not; sorted output', () => {
  const t = new AccessListTracker([], excluded);
  t.reached(step(OP.SSTORE, own, [7n, 0x20n]));
  t.reached(step(OP.SLOAD, own, [0x3n]));
  t.reached(step(OP.SLOAD, A(0xee), [0x1n]));
  t.reached(step(OP.SLOAD, own, []));
  expect(render(t)).toEqual([['00cc', [3n, 0x20n]], ['00ee', [1n]]]);
});

test('the address an opcode names: top word (BALANCE, EXTCODE*, SELFDESTRUCT), second word for the CALL family', () => {
  const t = new AccessListTracker([], excluded);
  t.reached(step(OP.BALANCE, own, [word('ff'.repeat(12) + '00'.repeat(18) + '00b1')]));
  t.reached(step(OP.EXTCODEHASH, own, [0xa2n]));
  t.reached(step(OP.SELFDESTRUCT, own, [0xa3n]));
  t.reached(step(OP.STATICCALL, own, [0n, 0n, 0n, 0n, 0xa4n, 100n]));
  // a CALL missing two stack items still counts (OnOpcode sees the faulting step); fewer than 5 does not
  t.reached(step(OP.CALL, own, [0n, 0n, 0n, 0xa5n, 100n]));
  t.reached(step(OP.CALL, own, [0n, 0n, 0xa6n, 100n]));
  // excluded addresses and CREATE are left out
  t.reached(step(OP.CALL, own, [0n, 0n, 0n, 0n, 0n, 1n, 100n]));
  t.reached(step(OP.EXTCODESIZE, own, [0xeen]));
  t.reached(step(OP.CREATE, own, [0n, 0n, 0xa7n]));
  expect(render(t)).toEqual([['00a2', []], ['00a3', []], ['00a4', []], ['00a5', []], ['00b1', []]]);
});

test('the initial list drops excluded addresses with their slots; equality is by content', () => {
  const initial = [{ address: A(0xee), storageKeys: [new Uint8Array(32)] }, { address: A(0xb2), storageKeys: [] }];
  const a = new AccessListTracker(initial, excluded);
  expect(render(a)).toEqual([['00b2', []]]);
  const b = new AccessListTracker([], excluded);
  expect(a.equals(b)).toBe(false);
  b.reached(step(OP.BALANCE, own, [0xb2n]));
  expect(a.equals(b)).toBe(true);
  b.reached(step(OP.SLOAD, A(0xb2), [5n]));
  expect(a.equals(b)).toBe(false);
});
