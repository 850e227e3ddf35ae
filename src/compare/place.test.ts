// Where a difference is placed, in the shapes of the answers: frames, prestate accounts, flat traces,
// receipts and logs, batches; decoded with an ABI. The answers are built here, small and exact.
import { describe, expect, test } from 'bun:test';
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, encodeFunctionData, getAddress, type Hex, parseAbi } from 'viem';
import { AbiDecoder } from '../abi/decoder.ts';
import { compareAnswers } from './answers.ts';

const VAULT: Hex = `0x${'aa'.repeat(20)}`;
const TOKEN: Hex = `0x${'bb'.repeat(20)}`;
const USER: Hex = `0x${'11'.repeat(20)}`;
const TX = (n: number): string => '0x' + String(n).repeat(64);
const ABI = parseAbi([
  'function deposit(uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'event Deposited(address indexed user, uint256 amount, uint256 fee)',
  'error Short(uint256 have, uint256 want)',
]);
const decoding = { decoder: new AbiDecoder([{ name: 'Vault', abi: ABI }]), labels: new Map([[VAULT, 'Vault'], [TOKEN, 'Token']]) };

const request = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const answer = (result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id: 1, result });
/** Places the differences between two results of `method`, decoded or not. */
const placed = (method: string, params: unknown[], expected: unknown, got: unknown, decode = false) =>
  compareAnswers(request(method, params), answer(expected), answer(got), { mode: 'bytes', ...(decode ? { decoding } : {}) }).map((d) => ({
    where: d.where,
    field: d.field,
    ...(d.decoded === undefined ? {} : { decoded: d.decoded }),
  }));

const deposit = (amount: bigint) => encodeFunctionData({ abi: ABI, functionName: 'deposit', args: [amount] });
const pull = encodeFunctionData({ abi: ABI, functionName: 'transferFrom', args: [USER, VAULT, 1000n] });
const event = (fee: bigint) => ({
  address: VAULT,
  topics: encodeEventTopics({ abi: ABI, eventName: 'Deposited', args: { user: USER } }),
  data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1000n, fee]),
  position: '0x1',
});
const frame = (fee: bigint, gasUsed = '0x10') => ({
  from: USER, gas: '0x100', gasUsed: '0x50', to: VAULT, input: deposit(1000n),
  calls: [{ from: VAULT, gas: '0x80', gasUsed, to: TOKEN, input: pull, output: '0x' + '0'.repeat(63) + '1', type: 'CALL' }],
  logs: [event(fee)], value: '0x0', type: 'CALL',
});
const callTracer = [{ tracer: 'callTracer', tracerConfig: { withLog: true } }];

describe('callTracer', () => {
  test('the transaction and the frame path through the call tree; the field below it', () => {
    const block = (gasUsed: string) => [{ txHash: TX(1), result: frame(25n) }, { txHash: TX(2), result: frame(25n, gasUsed) }];
    expect(placed('debug_traceBlockByNumber', ['0x3', ...callTracer], block('0x10'), block('0x11'))).toEqual([
      { where: `tx 1 (0x22222222…) › CALL 0xaaaa…aaaa › CALL 0xbbbb…bbbb`, field: 'gasUsed' },
    ]);
  });

  test('with ABIs: contract names, functions and arguments on the path; the event on each side', () => {
    const block = (fee: bigint) => [{ txHash: TX(1), result: frame(fee) }];
    expect(placed('debug_traceBlockByNumber', ['0x3', ...callTracer], block(25n), block(30n), true)).toEqual([
      {
        where: 'tx 0 (0x11111111…) › CALL Vault.deposit(amount: 1000)',
        field: 'logs[0].data',
        decoded: { expected: `Deposited(user: ${'0x' + '11'.repeat(20)}, amount: 1000, fee: 25)`, got: `Deposited(user: ${'0x' + '11'.repeat(20)}, amount: 1000, fee: 30)` },
      },
    ]);
  });

  test('a revert decoded on each side; one transaction of debug_traceTransaction', () => {
    const reverted = (want: bigint) => ({ ...frame(25n), error: 'execution reverted', output: encodeErrorResult({ abi: ABI, errorName: 'Short', args: [1n, want] }) });
    expect(placed('debug_traceTransaction', [TX(4), callTracer[0]], reverted(5n), reverted(6n), true)).toEqual([
      { where: 'tx 0x44444444… › CALL Vault.deposit(amount: 1000)', field: 'output', decoded: { expected: '[Revert] Short(have: 1, want: 5)', got: '[Revert] Short(have: 1, want: 6)' } },
    ]);
  });

  test('a frame that is on one side only is placed by that side', () => {
    const without = { ...frame(25n), calls: [] as unknown[] };
    expect(placed('debug_traceTransaction', [TX(4), callTracer[0]], frame(25n), without)).toEqual([
      { where: 'tx 0x44444444… › CALL 0xaaaa…aaaa › CALL 0xbbbb…bbbb', field: '(the value itself)' },
    ]);
  });
});

describe('prestateTracer', () => {
  const slot = '0x' + '0'.repeat(63) + '1';
  const state = (deposit: string) => ({ [VAULT]: { balance: '0x0', nonce: 1, storage: { [slot]: deposit } }, [USER]: { balance: '0x5' } });
  test('diff mode: pre or post, the account by name, the storage slot', () => {
    const block = (post: string) => [{ txHash: TX(1), result: { post: state(post), pre: state('0x0') } }];
    expect(placed('debug_traceBlockByNumber', ['0x3', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }], block('0x3d4'), block('0x3ca'), true)).toEqual([
      { where: 'tx 0 (0x11111111…) › post › Vault(0xaaaa…aaaa)', field: `storage[${slot}]` },
    ]);
  });
  test('prestate mode: the account and its field', () => {
    const got = { ...state('0x0'), [USER]: { balance: '0x6' } };
    expect(placed('debug_traceBlockByHash', [TX(9), { tracer: 'prestateTracer' }], [{ txHash: TX(1), result: state('0x0') }], [{ txHash: TX(1), result: got }])).toEqual([
      { where: 'tx 0 (0x11111111…) › 0x1111…1111', field: 'balance' },
    ]);
  });
});

describe('flat traces, receipts, logs, batches, errors', () => {
  const trace = (gas: string) => ({
    action: { from: VAULT, callType: 'call', gas, input: pull, to: TOKEN, value: '0x0' },
    blockHash: TX(7), blockNumber: 3, result: { gasUsed: '0x1', output: '0x' }, subtraces: 0, traceAddress: [0, 1],
    transactionHash: TX(2), transactionPosition: 2, type: 'call',
  });
  test('trace_block: the transaction, the traceAddress and callee (decoded)', () => {
    expect(placed('trace_block', ['0x3'], [trace('0x1')], [trace('0x2')], true)).toEqual([
      { where: `tx 2 (0x22222222…) › trace [0, 1] CALL Token(0xbbbb…bbbb).transferFrom(from: ${'0x' + '11'.repeat(20)}, to: ${getAddress(VAULT)}, amount: 1000)`, field: 'action.gas' },
    ]);
  });
  test('receipts: the transaction and the log, its event decoded', () => {
    const receipt = (fee: bigint) => ({ transactionHash: TX(3), transactionIndex: '0x3', logs: [event(25n), event(fee)], status: '0x1' });
    const [d] = placed('eth_getBlockReceipts', ['0x3'], [receipt(25n)], [receipt(26n)], true);
    expect(d).toMatchObject({ where: 'tx 3 (0x33333333…) › log 1', field: 'data' });
    expect(d!.decoded!.got).toContain('fee: 26');
  });
  test('eth_getLogs: the log by index with its transaction', () => {
    const log = (data: string) => ({ ...event(25n), data, transactionIndex: '0x2', logIndex: '0x5' });
    expect(placed('eth_getLogs', [{}], [log('0x01')], [log('0x02')])).toEqual([{ where: 'log 0 (tx 2, logIndex 5)', field: 'data' }]);
  });
  test('a batch: the request by index and method; an error by its member', () => {
    const batch = `[${request('eth_chainId', [])},${request('trace_block', ['0x3'])}]`;
    const found = compareAnswers(batch, `[${answer('0x1')},${answer([trace('0x1')])}]`, `[${answer('0x1')},${answer([trace('0x2')])}]`, { mode: 'bytes' });
    expect(found.map((d) => [d.where, d.field, d.path])).toEqual([['request 1 (trace_block) › tx 2 (0x22222222…) › trace [0, 1] CALL 0xbbbb…bbbb', 'action.gas', '$[1].result[0].action.gas']]);
    const error = (message: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32000, message } });
    expect(compareAnswers(request('trace_block', ['0x9']), error('a'), error('b'), { mode: 'bytes' }).map((d) => [d.where, d.field])).toEqual([['error', 'message']]);
  });
});

test('trace_replayBlockTransactions: the transaction, then its trace or the account of its state diff', () => {
  const replay = (to: string) => [{ output: '0x', stateDiff: { [VAULT]: { balance: { '*': { from: '0x1', to } } } }, trace: [], transactionHash: TX(5), vmTrace: null }];
  expect(placed('trace_replayBlockTransactions', ['0x3', ['trace', 'stateDiff']], replay('0x2'), replay('0x3'), true)).toEqual([
    { where: 'tx 0 (0x55555555…) › stateDiff › Vault(0xaaaa…aaaa)', field: 'balance["*"].to' },
  ]);
});

test('a call added in the middle: that frame only in ours, the frames after it still paired with their own', () => {
  const call = (to: Hex, gasUsed: string) => ({ from: VAULT, gas: '0x80', gasUsed, to, input: '0x', type: 'CALL' });
  const OTHER: Hex = `0x${'cc'.repeat(20)}`;
  const root = (calls: unknown[]) => ({ ...frame(25n), logs: [], calls });
  const found = compareAnswers(
    request('debug_traceTransaction', [TX(4), callTracer[0]]),
    answer(root([call(TOKEN, '0x1'), call(USER, '0x2')])),
    answer(root([call(TOKEN, '0x1'), call(OTHER, '0x9'), call(USER, '0x3')])),
    { mode: 'bytes', decoding },
  );
  expect(found.map((d) => [d.where, d.field, d.path, d.expected === 'missing', d.note])).toEqual([
    ['tx 0x44444444… › CALL Vault.deposit(amount: 1000) › CALL 0xcccc…cccc', '(the value itself)', '$.result.calls[1]', true, 'only in ours; the recording has 2 items, ours 3'],
    ['tx 0x44444444… › CALL Vault.deposit(amount: 1000) › CALL 0x1111…1111', 'gasUsed', '$.result.calls[1].gasUsed', false, undefined],
  ]);
  expect(found[1]).toMatchObject({ expected: '"0x2"', got: '"0x3"' });
});

describe('the location is data: the texts are made from it', () => {
  test('a frame path: the request, the transaction, the call of each frame (callee, contract, selector, function), the field', () => {
    const block = (gasUsed: string) => [{ txHash: TX(1), result: frame(25n, gasUsed) }];
    const [d] = compareAnswers(request('debug_traceBlockByNumber', ['0x3', ...callTracer]), answer(block('0x10')), answer(block('0x11')), { mode: 'bytes', decoding });
    expect(d!.location).toEqual({
      steps: ['result', 0, 'result', 'calls', 0, 'gasUsed'],
      request: { method: 'debug_traceBlockByNumber', block: '0x3' },
      places: [
        { kind: 'tx', index: 0, hash: TX(1) },
        { kind: 'frame', call: { type: 'CALL', to: VAULT, contract: 'Vault', selector: deposit(1000n).slice(0, 10), function: 'deposit', decoded: 'deposit(amount: 1000)' } },
        { kind: 'frame', call: { type: 'CALL', to: TOKEN, contract: 'Token', selector: pull.slice(0, 10), function: 'transferFrom', decoded: `transferFrom(from: ${USER}, to: ${getAddress(VAULT)}, amount: 1000)` } },
      ],
      field: { steps: ['gasUsed'] },
    });
    expect([d!.where, d!.field, d!.path]).toEqual([
      `tx 0 (0x11111111…) › CALL Vault.deposit(amount: 1000) › CALL Token.transferFrom(from: ${USER}, to: ${getAddress(VAULT)}, amount: 1000)`,
      'gasUsed',
      '$.result[0].result.calls[0].gasUsed',
    ]);
  });

  test('a prestate slot: the account and the slot; key order and the whole answer in the field', () => {
    const slot = '0x' + '0'.repeat(64);
    const pre = (value: string) => [{ txHash: TX(1), result: { post: { [VAULT]: { storage: { [slot]: value } } }, pre: {} } }];
    const [d] = compareAnswers(request('debug_traceBlockByNumber', ['0x3', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]), answer(pre('0x1')), answer(pre('0x2')), { mode: 'bytes' });
    expect(d!.location.places).toEqual([{ kind: 'tx', index: 0, hash: TX(1) }, { kind: 'part', name: 'post' }, { kind: 'account', address: VAULT }]);
    expect(d!.location.field).toEqual({ steps: ['storage', slot] });
    const [order] = compareAnswers(request('eth_chainId', []), '{"id":1,"jsonrpc":"2.0","result":"0x1"}', answer('0x1'), { mode: 'bytes' });
    expect([order!.location.field, order!.field]).toEqual([{ steps: [], keyOrder: true }, '(key order)']);
    const [none] = compareAnswers(request('debug_traceTransaction', [TX(4)]), answer(1), undefined, { mode: 'bytes' });
    expect(none!.location).toEqual({ steps: [], request: { method: 'debug_traceTransaction', tx: TX(4) }, places: [{ kind: 'part', name: 'response' }], field: { steps: [], whole: true } });
    expect([none!.where, none!.field, none!.path]).toEqual(['response', '(the whole answer)', '$']);
  });
});
