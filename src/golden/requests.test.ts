import { expect, test } from 'bun:test';
import { requestMethods, selected } from './run.ts';
import { fileStem, fileStems, lineNames } from './requests.ts';

const call = (method: string, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params: [] });

test('lines are named by their number (padded to sort) and method', () => {
  const lines = [call('eth_chainId'), `[${call('a')},${call('b', 2)}]`, 'garbage', ...Array.from({ length: 7 }, () => call('trace_block'))];
  expect(lineNames(lines).map((r) => r.name).slice(0, 4)).toEqual(['01.eth_chainId', '02.batch', '03.request', '04.trace_block']);
});

test('file stems keep subfolders and nothing that could leave DIR', () => {
  expect(fileStem('debug_traceBlockByNumber/trace-genesis#2')).toBe('debug_traceBlockByNumber/trace-genesis.2');
  expect(fileStem('../x/./a b')).toBe('_/x/_/a_b');
  expect(() => fileStems([{ name: 'a#1', request: '' }, { name: 'a.1', request: '' }])).toThrow('would both be written as a.1');
});

test('filters match a method exactly or a name in part', () => {
  expect(requestMethods(`[${call('a')},${call('b')},${call('a')}]`)).toEqual(['a', 'b']);
  expect(requestMethods('nonsense')).toEqual([]);
  expect(selected([], 'x', [])).toBe(true);
  expect(selected(['trace_block'], 'cancun/block-0x1', ['trace_block'])).toBe(true);
  expect(selected(['trace'], 'cancun/block-0x1', ['trace_block'])).toBe(false);
  expect(selected(['block-0x1'], 'cancun/block-0x1', ['trace_block'])).toBe(true);
});
