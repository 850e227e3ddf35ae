import { expect, test } from 'bun:test';
import { encodeErrorResult, parseAbi } from 'viem';
import { AbiDecoder } from './decoder.ts';
import { formatRevert, revertText } from './format.ts';

const SOLIDITY = parseAbi(['error Error(string message)', 'error Panic(uint256 code)']);
const panic = (code: bigint) => encodeErrorResult({ abi: SOLIDITY, errorName: 'Panic', args: [code] });
const decoder = new AbiDecoder([]);

test('a panic keeps its code, in hex, beside its meaning, as forge prints it', () => {
  expect(formatRevert(decoder.revert(panic(0x11n))!)).toBe('panic: arithmetic underflow or overflow (0x11)');
  expect(formatRevert(decoder.revert(panic(0x01n))!)).toBe('panic: assertion failed (0x01)');
  expect(formatRevert(decoder.revert(panic(0x99n))!)).toBe('panic: unknown code (0x99)');
});

test('go-ethereum\'s revertReason gives a panic\'s meaning without its code: the decoded panic wins; an Error(string) keeps the reason', () => {
  expect(revertText(decoder, panic(0x12n), 'division or modulo by zero')).toBe('panic: division or modulo by zero (0x12)');
  const error = encodeErrorResult({ abi: SOLIDITY, errorName: 'Error', args: ['Vault: insufficient deposit'] });
  expect(revertText(decoder, error, 'Vault: insufficient deposit')).toBe('Vault: insufficient deposit');
  expect(revertText(decoder, error, undefined)).toBe('Error(message: "Vault: insufficient deposit")');
  expect(revertText(decoder, '0x', undefined)).toBeUndefined();
});
