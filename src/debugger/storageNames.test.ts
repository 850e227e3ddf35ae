// Slot names inside structs and arrays, from the storageLayout solc itself writes: a contract with a
// struct, a mapping to structs, static and dynamic arrays (packed and not) and a nested struct is
// compiled here with solc-js (the devDependency `solc`), its slots computed as the EVM does, and the
// keccak256 preimages given as a run would have seen them.
import { expect, test } from 'bun:test';
import { createRequire } from 'node:module';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { storageOf } from '../abi/artifacts.ts';
import type { DebugTrace } from './debugTrace.ts';
import { slotNamer } from './storageNames.ts';
import { StepTable } from './stepTable.ts';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Layout {
    struct Inner { uint128 a; uint128 b; address who; }
    struct Position { uint256 amount; Inner inner; uint256[2] pair; }
    uint256 public total;                       // 0
    Position public pos;                        // 1..5
    mapping(address => Position) public byOwner; // 6
    uint256[3] public fixedList;                // 7..9
    uint8[40] public flags;                     // 10..11
    uint256[] public queue;                     // 12
    Inner[] public inners;                      // 13
    mapping(uint256 => mapping(address => uint256)) public nested; // 14
}`;

function layout(): ReturnType<typeof storageOf> {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const input = { language: 'Solidity', sources: { 'Layout.sol': { content: SOURCE } }, settings: { outputSelection: { '*': { '*': ['storageLayout'] } } } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  return storageOf(output.contracts['Layout.sol'].Layout.storageLayout);
}

const word = (n: bigint): Uint8Array => Uint8Array.from(Buffer.from(n.toString(16).padStart(64, '0'), 'hex'));
const hash = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(keccak_256(bytes)).toString('hex')}`);
const hex = (n: bigint): string => n.toString(16).padStart(64, '0');

test('members, elements and lengths are named inside structs, mappings to structs, static and dynamic arrays', () => {
  const storage = layout();
  const steps = new StepTable();
  steps.push(0, 0x55, 0, 100n, 1n, 0, -1, 0);
  const trace = { steps, frames: new Map([[0, { index: 0, contract: { storage } }]]), tx: { frames: [{ kind: 'CALL', parent: -1 }] } } as unknown as DebugTrace;

  const owner = 0x70997970c51812dc3a010c7d01b50e0d17dc79c8n;
  const preimages = new Map<string, Uint8Array>();
  const seen = (bytes: Uint8Array): bigint => {
    const h = hash(bytes);
    preimages.set(hex(h), bytes);
    return h;
  };
  const entry = seen(new Uint8Array([...word(owner), ...word(6n)]));
  const queue = seen(word(12n));
  const inners = seen(word(13n));
  const outer = seen(new Uint8Array([...word(7n), ...word(14n)]));
  const inNested = seen(new Uint8Array([...word(owner), ...word(outer)]));
  const name = slotNamer(trace, 0, preimages)!;

  expect([0n, 1n, 2n, 3n, 4n, 5n, 6n].map(name)).toEqual(['total', 'pos.amount', 'pos.inner.a', 'pos.inner.who', 'pos.pair[0]', 'pos.pair[1]', 'byOwner']);
  expect([7n, 9n, 10n, 11n, 12n, 13n, 15n].map(name)).toEqual(['fixedList[0]', 'fixedList[2]', 'flags[0..31]', 'flags[32..39]', 'queue.length', 'inners.length', undefined]);
  const who = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
  expect([entry, entry + 1n, entry + 2n, entry + 4n, entry + 5n].map(name)).toEqual([`byOwner[${who}].amount`, `byOwner[${who}].inner.a`, `byOwner[${who}].inner.who`, `byOwner[${who}].pair[1]`, undefined]);
  expect([queue, queue + 5n, inners, inners + 1n, inners + 2n, inners + 3n].map(name)).toEqual(['queue[0]', 'queue[5]', 'inners[0].a', 'inners[0].who', 'inners[1].a', 'inners[1].who']);
  expect(name(inNested)).toBe(`nested[7][${who}]`);
  // a hash the run never computed stays unnamed
  expect(name(hash(word(99n)))).toBeUndefined();
});
