import { expect, test } from 'bun:test';
import { encodeAbiParameters, parseAbi } from 'viem';
import { AbiDecoder } from './decoder.ts';

const ABI = parseAbi(['constructor(address token, uint256 feeBps)']);
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const LIBRARY = '70997970c51812dc3a010c7d01b50e0d17dc79c8';
/** A CBOR metadata trailer of 10 bytes and its length: what solc ends code with. */
const trailer = (fill: string): string => `a1${fill.repeat(9)}000a`;
/** Creation code that calls a linked library (its address still a placeholder), then the trailer. */
const creation = (library: string, fill: string): string => `608060405273${library}6000550000fe${trailer(fill)}`;
const PLACEHOLDER = `__$${'6c'.repeat(17)}$__`;
const args = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [TOKEN, 250n]).slice(2);

test('init code is an artifact\'s creation code and the constructor\'s arguments: linked libraries and the metadata trailer aside', () => {
  const decoder = new AbiDecoder([{ name: 'Vault', abi: ABI, creationCode: creation(PLACEHOLDER, 'aa') }]);
  // linked, and compiled again with another metadata hash
  expect(decoder.creation(`0x${creation(LIBRARY, 'bb')}${args}`)).toEqual({ name: 'Vault', args: [['token', TOKEN], ['feeBps', 250n]] });
  // other code before the trailer: not this artifact
  expect(decoder.creation(`0x${creation(LIBRARY, 'bb').replace('6000550000fe', '6001550000fe')}${args}`)).toBeUndefined();
  // the arguments missing: not a creation of it either
  expect(decoder.creation(`0x${creation(LIBRARY, 'aa')}`)).toBeUndefined();
});

test('a constructor without inputs names the creation with no arguments; runtime code alone names nothing', () => {
  const decoder = new AbiDecoder([{ name: 'Plain', abi: parseAbi(['function f()']), creationCode: creation(LIBRARY, 'aa') }]);
  expect(decoder.creation(`0x${creation(LIBRARY, 'aa')}`)).toEqual({ name: 'Plain', args: [] });
  expect(new AbiDecoder([{ name: 'Plain', abi: ABI, deployedCode: creation(LIBRARY, 'aa') }]).creation(`0x${creation(LIBRARY, 'aa')}${args}`)).toBeUndefined();
});
