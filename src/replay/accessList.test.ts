// go-ethereum eth/tracers/logger/access_list_tracer.go, rule by rule.
import { expect, test } from 'bun:test';
import { hexToBytes } from '@ethereumjs/util';
import { AccessListTracker } from './accessList.ts';
import { OP } from './opcodeHooks.ts';

const A = (n: number) => hexToBytes(`0x${n.toString(16).padStart(40, '0')}`);
const word = (hex: string) => BigInt(`0x${hex}`);
const own = A(0xcc);
const excluded = new Set(['00000000000000000000000000000000000000ee', '0000000000000000000000000000000000000001']);
const render = (t: AccessListTracker) =>
  t.accessList().map((e) => [Buffer.from(e.address).toString('hex').slice(-4), e.storageKeys.map((k) => BigInt(`0x${Buffer.from(k).toString('hex')}`))]);

test('SLOAD/SSTORE add the top word as a slot of the frame, excluded or not; sorted output', () => {
  const t = new AccessListTracker([], excluded);
  t.onStep({ op: OP.SSTORE, address: own, stack: [7n, 0x20n] });
  t.onStep({ op: OP.SLOAD, address: own, stack: [0x3n] });
  t.onStep({ op: OP.SLOAD, address: A(0xee), stack: [0x1n] });
  t.onStep({ op: OP.SLOAD, address: own, stack: [] });
  expect(render(t)).toEqual([['00cc', [3n, 0x20n]], ['00ee', [1n]]]);
});

test('the address an opcode names: top word (BALANCE, EXTCODE*, SELFDESTRUCT), second word for the CALL family', () => {
  const t = new AccessListTracker([], excluded);
  t.onStep({ op: OP.BALANCE, address: own, stack: [word('ff'.repeat(12) + '00'.repeat(18) + '00b1')] });
  t.onStep({ op: OP.EXTCODEHASH, address: own, stack: [0xa2n] });
  t.onStep({ op: OP.SELFDESTRUCT, address: own, stack: [0xa3n] });
  t.onStep({ op: OP.STATICCALL, address: own, stack: [0n, 0n, 0n, 0n, 0xa4n, 100n] });
  // a CALL missing two stack items still counts (OnOpcode sees the faulting step); fewer than 5 does not
  t.onStep({ op: OP.CALL, address: own, stack: [0n, 0n, 0n, 0xa5n, 100n] });
  t.onStep({ op: OP.CALL, address: own, stack: [0n, 0n, 0xa6n, 100n] });
  // excluded addresses and CREATE are left out
  t.onStep({ op: OP.CALL, address: own, stack: [0n, 0n, 0n, 0n, 0n, 1n, 100n] });
  t.onStep({ op: OP.EXTCODESIZE, address: own, stack: [0xeen] });
  t.onStep({ op: OP.CREATE, address: own, stack: [0n, 0n, 0xa7n] });
  expect(render(t)).toEqual([['00a2', []], ['00a3', []], ['00a4', []], ['00a5', []], ['00b1', []]]);
});

test('the initial list drops excluded addresses with their slots; equality is by content', () => {
  const initial = [{ address: A(0xee), storageKeys: [new Uint8Array(32)] }, { address: A(0xb2), storageKeys: [] }];
  const a = new AccessListTracker(initial, excluded);
  expect(render(a)).toEqual([['00b2', []]]);
  const b = new AccessListTracker([], excluded);
  expect(a.equals(b)).toBe(false);
  b.onStep({ op: OP.BALANCE, address: own, stack: [0xb2n] });
  expect(a.equals(b)).toBe(true);
  b.onStep({ op: OP.SLOAD, address: A(0xb2), stack: [5n] });
  expect(a.equals(b)).toBe(false);
});
