import { expect, test } from 'bun:test';
import { encodeAbiParameters, getAddress, keccak256, type Hex } from 'viem';
import type { StorageVariable } from './types.ts';
import { SlotNamer } from './slots.ts';

const A: Hex = `0x${'ab'.repeat(20)}`;
const B: Hex = `0x${'cd'.repeat(20)}`;
const word = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
/** keccak256(key . slot): where a mapping keeps `key`'s entry. */
const entry = (key: Hex, slot: Hex): Hex => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [key, slot]));

const LAYOUT: StorageVariable[] = [
  { label: 'owner', slot: 0n, type: 'address', mappingDepth: 0, valueType: 'address' },
  { label: 'balances', slot: 3n, type: 'mapping(address => uint256)', mappingDepth: 1, valueType: 'uint256' },
  { label: 'allowance', slot: 4n, type: 'mapping(address => mapping(address => uint256))', mappingDepth: 2, valueType: 'uint256' },
];

test('with a storage layout: variables, mapping entries and nested ones, keyed by the addresses of the answers, with their value types', () => {
  const namer = new SlotNamer([A, B.toUpperCase().replace('0X', '0x')]);
  expect(namer.name(word(0n), LAYOUT)).toEqual({ name: 'owner', type: 'address' });
  expect(namer.name(entry(B, word(3n)), LAYOUT)).toEqual({ name: `balances[${getAddress(B)}]`, type: 'uint256' });
  expect(namer.name(entry(B, entry(A, word(4n))), LAYOUT)).toEqual({ name: `allowance[${getAddress(A)}][${getAddress(B)}]`, type: 'uint256' });
  expect(namer.name(word(7n), LAYOUT)).toBeUndefined();
  expect(namer.name(entry(A, word(5n)), LAYOUT)).toBeUndefined();
});

test('without one: mappings of slots 0 to 15, one or two deep, by slot number; a plain slot is left as it is', () => {
  const namer = new SlotNamer([A, B]);
  expect(namer.name(entry(A, word(3n)), undefined)).toEqual({ name: `slot 3[${getAddress(A)}]` });
  expect(namer.name(entry(B, entry(A, word(15n))), undefined)).toEqual({ name: `slot 15[${getAddress(A)}][${getAddress(B)}]` });
  expect(namer.name(entry(A, word(16n)), undefined)).toBeUndefined();
  expect(namer.name(word(3n), undefined)).toBeUndefined();
});
