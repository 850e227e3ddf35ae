import { expect, test } from 'bun:test';
import { didYouMean, nearest } from './suggest.ts';

const COMMANDS = ['serve', 'check', 'record', 'capture', 'show', 'cache', 'help'];
const OPTIONS = ['--port', '--host', '--replay-file', '--rpc', '--ignore', '--abi'];

test.each([
  ['serv', COMMANDS, 'serve'],
  ['chek', COMMANDS, 'check'],
  ['recrod', COMMANDS, 'record'],
  ['cach', COMMANDS, 'cache'],
  ['--prot', OPTIONS, '--port'],
  ['--rcp', OPTIONS, '--rpc'],
  ['--replay-fil', OPTIONS, '--replay-file'],
  ['--ignor', OPTIONS, '--ignore'],
])('%s → %s', (word, known, expected) => expect(nearest(word, known)).toBe(expected));

test.each([['frobnicate'], ['x'], ['--verbose'], ['0x12'], ['sh']])('%s: nothing near enough', (word) => {
  expect(nearest(word, [...COMMANDS, ...OPTIONS])).toBeUndefined();
});

test('the phrase', () => {
  expect(didYouMean('serv', COMMANDS)).toBe(' (did you mean serve?)');
  expect(didYouMean('serve', COMMANDS)).toBe('');
  expect(didYouMean('zzz', COMMANDS)).toBe('');
});
