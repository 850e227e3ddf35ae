import { expect, test } from 'bun:test';
import { requestMethods, selected } from './run.ts';
import { caseNames, fileStem, fileStems, requestName, uniqueNames } from './requests.ts';

const call = (method: string, id = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params: [] });

const rpc = (method: string, params?: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const HASH = '0x1A2b3c4d' + '5e'.repeat(28);

test('a request line is named from what it asks', () => {
  const cases: [string, string][] = [
    [rpc('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer' }]), '0x3.debug_traceBlockByNumber.callTracer'],
    [rpc('trace_block', ['0x3']), '0x3.trace_block'],
    [rpc('debug_traceBlockByNumber', ['0x3', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]), '0x3.debug_traceBlockByNumber.prestateTracer.diffMode'],
    [rpc('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer', tracerConfig: { withLog: true } }]), '0x3.debug_traceBlockByNumber.callTracer.withLog'],
    // true flags in the order given; false ones and other values are not flags
    [rpc('debug_traceBlockByNumber', ['latest', { tracer: 'callTracer', tracerConfig: { withLog: true, onlyTopCall: false, x: 1, onlyTopCall2: true } }]), 'latest.debug_traceBlockByNumber.callTracer.withLog.onlyTopCall2'],
    [rpc('debug_traceTransaction', [HASH, { tracer: 'callTracer' }]), '0x1a2b3c4d.debug_traceTransaction.callTracer'],
    [rpc('debug_traceBlockByHash', [HASH]), '0x1a2b3c4d.debug_traceBlockByHash'],
    [rpc('debug_traceTransaction', [HASH]), '0x1a2b3c4d.debug_traceTransaction'],
    [rpc('debug_traceCall', [{ to: '0x' + '11'.repeat(20) }, 'earliest', { tracer: 'callTracer' }]), 'earliest.debug_traceCall.callTracer'],
    [rpc('eth_call', [{ to: '0x' + '11'.repeat(20) }, { blockHash: HASH }]), '0x1a2b3c4d.eth_call'],
    [rpc('eth_estimateGas', [{ to: '0x' + '11'.repeat(20) }]), 'eth_estimateGas'],
    [rpc('debug_traceTransaction', [HASH, { tracer: 'function() { return {}; }' }]), '0x1a2b3c4d.debug_traceTransaction.js'],
    [rpc('debug_traceTransaction', [HASH, { tracer: '4byteTracer' }]), '0x1a2b3c4d.debug_traceTransaction.4byteTracer'],
    [rpc('eth_getBalance', ['0x' + 'Ab'.repeat(20), 'latest']), '0xabababab.eth_getBalance'],
    [rpc('eth_chainId'), 'eth_chainId'],
    [rpc('eth_chainId', []), 'eth_chainId'],
    [rpc('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x5', address: '0x' + '11'.repeat(20) }]), '0x1-0x5.eth_getLogs'],
    [rpc('trace_filter', [{ fromBlock: '0x1', toBlock: 'latest' }]), '0x1-latest.trace_filter'],
    [rpc('eth_getLogs', [{ fromBlock: '0x1' }]), 'from-0x1.eth_getLogs'],
    [rpc('eth_getLogs', [{ toBlock: '0x5' }]), 'to-0x5.eth_getLogs'],
    [rpc('eth_getLogs', [{ blockHash: HASH }]), '0x1a2b3c4d.eth_getLogs'],
    [rpc('eth_getLogs', [{}]), 'eth_getLogs'],
    // what a geth error case sends: a number, a string that is not hex; long strings are left out
    [rpc('trace_block', [3]), '3.trace_block'],
    [rpc('trace_block', ['0xzz']), '0xzz.trace_block'],
    [rpc('eth_sendRawTransaction', ['0x' + 'f8'.repeat(100)]), '0xf8f8f8f8.eth_sendRawTransaction'],
    [rpc('eth_call', ['a plain string longer than eighteen']), 'eth_call'],
    [`[${rpc('eth_blockNumber')},${rpc('trace_block', ['0x1'], 2)},${rpc('eth_blockNumber', [], 3)}]`, 'batch.eth_blockNumber+trace_block'],
    ['[]', 'batch'],
    ['[1,2]', 'batch'],
    [`[${Array.from({ length: 9 }, (_, i) => rpc(`debug_method${i}`)).join(',')}]`, 'batch.debug_method0+debug_method1+debug_method2+debug_method3+more'],
    ['not json', 'request'],
    ['"eth_chainId"', 'request'],
    ['{"jsonrpc":"2.0","id":1}', 'request'],
    [rpc(''), 'request'],
    // nothing that could leave DIR, hide the file or make a subfolder
    [rpc('../x/y', ['a/b']), 'a_b..._x_y'],
    [rpc('.hidden'), '_.hidden'],
    [rpc('trace_block', [-1]), '_-1.trace_block'],
    [rpc('debug_traceBlockByNumber', ['0x3', { tracer: 'callTracer', tracerConfig: { 'a b/..': true } }]), '0x3.debug_traceBlockByNumber.callTracer.a_b_..'],
  ];
  for (const [request, name] of cases) expect([request, requestName(request)]).toEqual([request, name]);
  for (const [request] of cases) expect(fileStem(requestName(request))).toBe(requestName(request));
  expect(requestName(rpc('m'.repeat(500), [HASH, { tracer: 'callTracer', tracerConfig: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`flag${i}`, true])) }])).length).toBe(120);
});

test('names are unique and stable: the second and later of a name get .2, .3, …', () => {
  expect(uniqueNames(['a', 'b', 'a', 'a', 'b'])).toEqual(['a', 'b', 'a.2', 'a.3', 'b.2']);
  // a name that is already someone's suffixed name, and one that differs only in letter case
  expect(uniqueNames(['a', 'a', 'a.2', 'A'])).toEqual(['a', 'a.2', 'a.2.2', 'A.3']);
  const lines = [rpc('trace_block', ['0x1']), rpc('eth_chainId'), rpc('trace_block', ['0x1'], 2), 'garbage', 'garbage'];
  expect(caseNames(lines)).toEqual([
    { name: '0x1.trace_block', request: lines[0]! },
    { name: 'eth_chainId', request: lines[1]! },
    { name: '0x1.trace_block.2', request: lines[2]! },
    { name: 'request', request: lines[3]! },
    { name: 'request.2', request: lines[4]! },
  ]);
  expect(() => fileStems(caseNames(lines))).not.toThrow();
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
