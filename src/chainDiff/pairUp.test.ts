import { expect, test } from 'bun:test';
import { logsDiffering, pairUp, type Tx } from './pairUp.ts';

const tx = (block: number, index: number, hash: string, sender?: string, nonce?: number): Tx => ({
  block: BigInt(block),
  index,
  hash,
  ...(sender === undefined ? {} : { sender }),
  ...(nonce === undefined ? {} : { nonce: BigInt(nonce) }),
  gasUsed: 21_000n,
  logs: [],
});
const names = (r: ReturnType<typeof pairUp>) => ({ pairs: r.pairs.map(([a, b, by]) => `${a.hash}=${b.hash} ${by}`), onlyA: r.onlyA.map((t) => t.hash), onlyB: r.onlyB.map((t) => t.hash) });

test('by sender and nonce, wherever each side has it: a dropped, a moved and an added transaction', () => {
  const a = [tx(1, 0, 'a0', 's', 0), tx(1, 1, 'a1', 't', 0), tx(1, 2, 'a2', 's', 1), tx(2, 0, 'a3', 'u', 5)];
  const b = [tx(1, 0, 'b0', 's', 0), tx(1, 1, 'b1', 's', 1), tx(2, 0, 'b2', 'u', 5), tx(2, 1, 'b3', 'u', 6)];
  expect(names(pairUp(a, b))).toEqual({ pairs: ['a0=b0 sender and nonce', 'a2=b1 sender and nonce', 'a3=b2 sender and nonce'], onlyA: ['a1'], onlyB: ['b3'] });
});

test('by position where sender and nonce do not identify one: no sender, or the same twice on a side', () => {
  const a = [tx(1, 0, 'a0'), tx(1, 1, 'a1', 's', 0), tx(1, 2, 'a2', 'd', 3), tx(1, 3, 'a3', 'd', 3)];
  const b = [tx(1, 0, 'b0'), tx(1, 1, 'b1', 's', 0), tx(1, 2, 'b2', 'd', 3), tx(1, 3, 'b3')];
  expect(names(pairUp(a, b))).toEqual({ pairs: ['a0=b0 position', 'a1=b1 sender and nonce', 'a2=b2 position', 'a3=b3 position'], onlyA: [], onlyB: [] });
  // a transaction without a sender has no pair where the other side's place holds a keyed one
  expect(names(pairUp([tx(1, 0, 'a0')], [tx(1, 0, 'b0', 's', 0)]))).toEqual({ pairs: [], onlyA: ['a0'], onlyB: ['b0'] });
});

test('logs that differ: address (any case), topics, data; those on one side count', () => {
  const log = (address: string, data: string, ...topics: string[]) => ({ address, data, topics });
  expect(logsDiffering([log('0xAb', '0x', '0x1')], [log('0xab', '0x', '0x1')])).toBe(0);
  expect(logsDiffering([log('0xab', '0x01', '0x1'), log('0xab', '0x', '0x2')], [log('0xab', '0x02', '0x1'), log('0xab', '0x', '0x3'), log('0xcd', '0x')])).toBe(3);
});
