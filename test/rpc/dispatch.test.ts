// The dispatcher against a fake chain: envelope rules, every error class, param texts, batches.
// Expected texts are go-ethereum's (rpc/json.go, rpc/handler.go, rpc/errors.go, hexutil) for
// debug_*/eth_*, and anvil/reth's for trace_*.
import { describe, expect, test } from 'bun:test';
import { goJson } from '../../src/encoding/json.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';
import { fakeChain, fakeContext } from './fakeChain.ts';

const A1 = '0x' + 'a1'.repeat(32);
const A2 = '0x' + 'a2'.repeat(32);
const B1 = '0x' + 'b1'.repeat(32);
const ZERO1 = '0x' + '0'.repeat(63) + '1';

const req = (method: string, params?: unknown, id: unknown = 1): string =>
  JSON.stringify(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const err = (code: number, message: string, id = '1'): string =>
  `{"jsonrpc":"2.0","id":${id},"error":${goJson({ code, message })}}`;
const ok = (result: string, id = '1'): string => `{"jsonrpc":"2.0","id":${id},"result":${result}}`;

const SUPPORTED = '(supported: callTracer, prestateTracer)';
const TRACED_BLOCK_1 =
  '[{"txHash":"' + A1 + '","result":{"tracer":"callTracer","tx":0,"flag":null}},' +
  '{"txHash":"' + A2 + '","result":{"tracer":"callTracer","tx":1,"flag":null}}]';

// [name, request body, expected response (undefined = no answer)]
const CASES: readonly (readonly [string, string, string | undefined])[] = [
  // envelope (ParseError / InvalidRequestError)
  ['malformed JSON', '{"jsonrpc":"2.0","id":1,', err(-32700, 'parse error', 'null')],
  ['not JSON', 'hello', err(-32700, 'parse error', 'null')],
  ['trailing comma', '{"jsonrpc":"2.0","id":1,"method":"eth_chainId",}', err(-32700, 'parse error', 'null')],
  ['empty body', '', undefined],
  ['whitespace body', ' \n\t', undefined],
  ['first value only, rest ignored', req('eth_chainId') + ' trailing junk', ok('"0x539"')],
  ['jsonrpc 1.0', '{"jsonrpc":"1.0","id":1,"method":"eth_chainId"}', err(-32600, 'invalid request')],
  ['no jsonrpc', '{"id":7,"method":"eth_chainId"}', err(-32600, 'invalid request', '7')],
  ['method not a string', '{"jsonrpc":"2.0","id":1,"method":7}', err(-32600, 'invalid request')],
  ['object id', '{"jsonrpc":"2.0","id":{},"method":"eth_chainId"}', err(-32600, 'invalid request', 'null')],
  ['array id', '{"jsonrpc":"2.0","id":[1],"method":"eth_chainId"}', err(-32600, 'invalid request', 'null')],
  ['top-level number', '5', err(-32600, 'invalid request', 'null')],
  ['top-level null', 'null', err(-32600, 'invalid request', 'null')],
  ['keys match case-insensitively', '{"JSONRPC":"2.0","ID":3,"Method":"eth_chainId"}', ok('"0x539"', '3')],
  ['method name too long', req('x'.repeat(2049)), err(-32600, 'method name too long: 2049 > 2048')],
  // ids echoed verbatim
  ['string id', req('eth_chainId', [], 'abc'), ok('"0x539"', '"abc"')],
  ['null id', req('eth_chainId', [], null), ok('"0x539"', 'null')],
  ['id kept byte for byte', '{"jsonrpc":"2.0","id":1.50,"method":"eth_chainId"}', ok('"0x539"', '1.50')],
  ['id string with escapes kept', '{"jsonrpc":"2.0","id":"a\\u0041<","method":"eth_chainId"}', ok('"0x539"', '"a\\u0041<"')],
  // notifications and responses get no answer
  ['notification', '{"jsonrpc":"2.0","method":"eth_chainId"}', undefined],
  ['response message', '{"jsonrpc":"2.0","id":1,"result":"0x1"}', undefined],
  // MethodNotFoundError
  ['unknown method', req('no_such_method'), err(-32601, 'the method no_such_method does not exist/is not available')],
  ['method name case matters', req('trace_Block', ['0x1']), err(-32601, 'the method trace_Block does not exist/is not available')],
  ['method name is escaped like Go', req('a<b>&'), '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method a\\u003cb\\u003e\\u0026 does not exist/is not available"}}'],
  // InvalidParamsError: go-ethereum positional params
  ['non-array params', req('debug_traceBlockByNumber', { block: '0x1' }), err(-32602, 'non-array args')],
  ['missing required argument', req('debug_traceBlockByNumber', []), err(-32602, 'missing value for required argument 0')],
  ['params absent', req('debug_traceBlockByNumber'), err(-32602, 'missing value for required argument 0')],
  ['params null', req('debug_traceBlockByNumber', null), err(-32602, 'missing value for required argument 0')],
  ['too many arguments', req('debug_traceBlockByNumber', ['0x1', {}, 1]), err(-32602, 'too many arguments, want at most 2')],
  ['eth_chainId with args', req('eth_chainId', [1]), err(-32602, 'too many arguments, want at most 0')],
  ['decimal string block', req('debug_traceBlockByNumber', ['3']), err(-32602, 'invalid argument 0: hex string without 0x prefix')],
  ['JSON number block', req('debug_traceBlockByNumber', [3]), err(-32602, 'invalid argument 0: hex string without 0x prefix')],
  ['null block', req('debug_traceBlockByNumber', [null]), err(-32602, 'invalid argument 0: hex string without 0x prefix')],
  ['leading zero', req('debug_traceBlockByNumber', ['0x01']), err(-32602, 'invalid argument 0: hex number with leading zero digits')],
  ['bare 0x', req('debug_traceBlockByNumber', ['0x']), err(-32602, 'invalid argument 0: hex string "0x"')],
  ['empty string block', req('debug_traceBlockByNumber', ['']), err(-32602, 'invalid argument 0: empty hex string')],
  ['bad hex digit', req('debug_traceBlockByNumber', ['0xzz']), err(-32602, 'invalid argument 0: invalid hex string')],
  ['> 64 bits', req('debug_traceBlockByNumber', ['0x10000000000000000']), err(-32602, 'invalid argument 0: hex number > 64 bits')],
  ['> int64', req('debug_traceBlockByNumber', ['0xffffffffffffffff']), err(-32602, 'invalid argument 0: block number larger than int64')],
  ['hash as block number', req('debug_traceBlockByNumber', [B1]), err(-32602, 'invalid argument 0: hex number > 64 bits')],
  ['hash not a string', req('debug_traceBlockByHash', [1]), err(-32602, 'invalid argument 0: json: cannot unmarshal non-string into Go value of type common.Hash')],
  ['hash without prefix', req('debug_traceBlockByHash', ['b1'.repeat(32)]), err(-32602, 'invalid argument 0: json: cannot unmarshal hex string without 0x prefix into Go value of type common.Hash')],
  ['hash too short', req('debug_traceBlockByHash', ['0x12']), err(-32602, 'invalid argument 0: hex string has length 2, want 64 for common.Hash')],
  ['hash odd length', req('debug_traceBlockByHash', ['0x123']), err(-32602, 'invalid argument 0: json: cannot unmarshal hex string of odd length into Go value of type common.Hash')],
  ['options not an object', req('debug_traceBlockByNumber', ['0x1', 'callTracer']), err(-32602, 'invalid argument 1: json: cannot unmarshal string into Go value of type tracers.TraceConfig')],
  ['tracer not a string', req('debug_traceBlockByNumber', ['0x1', { tracer: 123 }]), err(-32602, 'invalid argument 1: json: cannot unmarshal number into Go struct field TraceConfig.Tracer of type string')],
  ['bool param wrong kind', req('eth_getBlockByNumber', ['0x1', 'yes']), err(-32602, 'invalid argument 1: json: cannot unmarshal string into Go value of type bool')],
  // InvalidParamsError: tracer choice and config
  ['no options', req('debug_traceBlockByNumber', ['0x1']), err(-32602, `tracer is required ${SUPPORTED}`)],
  ['options null', req('debug_traceBlockByNumber', ['0x1', null]), err(-32602, `tracer is required ${SUPPORTED}`)],
  ['no tracer', req('debug_traceBlockByNumber', ['0x1', {}]), err(-32602, `tracer is required ${SUPPORTED}`)],
  ['flatCallTracer', req('debug_traceBlockByNumber', ['0x1', { tracer: 'flatCallTracer' }]), err(-32602, `tracer "flatCallTracer" is not supported ${SUPPORTED}`)],
  ['wrong case tracer', req('debug_traceBlockByNumber', ['0x1', { tracer: 'calltracer' }]), err(-32602, `tracer "calltracer" is not supported ${SUPPORTED}`)],
  ['unknown tracerConfig key', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { bogus: true } }]), err(-32602, 'invalid tracerConfig for callTracer: unknown field "bogus" (allowed: flag)')],
  ['wrong tracerConfig type', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { flag: 'yes' } }]), err(-32602, 'invalid tracerConfig for callTracer: flag: Expected boolean')],
  ['tracerConfig not an object', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: 'x' }]), err(-32602, 'invalid tracerConfig for callTracer: expected a JSON object')],
  ['tracer check fails', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { flag: false } }]), err(-32602, 'flag must not be false')],
  // ServerError (-32000), go-ethereum eth/tracers/api.go
  ['unknown block number', req('debug_traceBlockByNumber', ['0x3f4', { tracer: 'callTracer' }]), err(-32000, 'block #1012 not found')],
  ['unknown block hash', req('debug_traceBlockByHash', [ZERO1, { tracer: 'callTracer' }]), err(-32000, `block ${ZERO1} not found`)],
  ['block error before tracer error', req('debug_traceBlockByNumber', ['0x3f4']), err(-32000, 'block #1012 not found')],
  ['genesis by number', req('debug_traceBlockByNumber', ['0x0', { tracer: 'callTracer' }]), err(-32000, 'genesis is not traceable')],
  ['genesis by tag', req('debug_traceBlockByNumber', ['earliest']), err(-32000, 'genesis is not traceable')],
  ['genesis by hash', req('debug_traceBlockByHash', ['0x' + 'b0'.repeat(32)]), err(-32000, 'genesis is not traceable')],
  ['unknown tx', req('debug_traceTransaction', [ZERO1]), err(-32000, 'transaction not found')],
  ['bad timeout', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', timeout: 'soon' }]), err(-32000, 'time: invalid duration "soon"')],
  // results
  ['traceBlockByNumber', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]), ok(TRACED_BLOCK_1)],
  ['0X prefix accepted', req('debug_traceBlockByNumber', ['0X1', { tracer: 'callTracer' }]), ok(TRACED_BLOCK_1)],
  ['finalized tag', req('debug_traceBlockByNumber', ['finalized', { tracer: 'callTracer' }]), ok(TRACED_BLOCK_1)],
  ['timeout accepted', req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', timeout: '10s' }]), ok(TRACED_BLOCK_1)],
  ['keys of options match like Go', req('debug_traceBlockByNumber', ['0x1', { TRACER: 'callTracer', extra: 1 }]), ok(TRACED_BLOCK_1)],
  ['tracerConfig passed', req('debug_traceBlockByHash', [B1, { tracer: 'prestateTracer', tracerConfig: { flag: true } }]), ok(`[{"txHash":"${A1}","result":{"tracer":"prestateTracer","tx":0,"flag":true}},{"txHash":"${A2}","result":{"tracer":"prestateTracer","tx":1,"flag":true}}]`)],
  ['empty block', req('debug_traceBlockByNumber', ['latest', { tracer: 'callTracer' }]), ok('[]')],
  ['pending is latest', req('debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }]), ok('[]')],
  ['traceTransaction', req('debug_traceTransaction', [A2, { tracer: 'callTracer' }]), ok('{"tracer":"callTracer","tx":1,"flag":null}')],
  // trace_* (reth / anvil)
  ['trace_block unknown block', req('trace_block', ['0x3f4']), err(-32001, 'block not found: 0x3f4')],
  ['trace_block genesis', req('trace_block', ['0x0']), ok('[]')],
  ['trace_block decimal string', req('trace_block', ['1']), ok('[{"transactionPosition":0},{"transactionPosition":1}]')],
  ['trace_block JSON number', req('trace_block', [1]), ok('[{"transactionPosition":0},{"transactionPosition":1}]')],
  ['trace_block no params', req('trace_block'), err(-32602, 'invalid type: null, expected an array of length 1')],
  ['trace_block empty params', req('trace_block', []), err(-32602, 'invalid length 0, expected an array of length 1')],
  ['trace_block extra param', req('trace_block', ['0x1', 'x']), err(-32602, 'invalid length 2, expected fewer elements in array')],
  ['trace_block bool', req('trace_block', [true]), err(-32602, 'invalid type: boolean `true`, expected a block number or tag, or a u64')],
  ['trace_block bad hex', req('trace_block', ['0xzz']), err(-32602, 'invalid digit found in string')],
  ['trace_transaction', req('trace_transaction', [A2]), ok('[{"transactionPosition":1}]')],
  ['trace_transaction unknown', req('trace_transaction', [ZERO1]), ok('null')],
  // eth_* / net_* / web3_*
  ['eth_chainId', req('eth_chainId', []), ok('"0x539"')],
  ['eth_blockNumber', req('eth_blockNumber'), ok('"0x2"')],
  ['net_version', req('net_version'), ok('"1337"')],
  ['web3_clientVersion', req('web3_clientVersion'), ok('"blocktrace/test"')],
  ['eth_getBlockByNumber unknown', req('eth_getBlockByNumber', ['0x3f4', false]), ok('null')],
  ['eth_getBlockByHash unknown', req('eth_getBlockByHash', [ZERO1, false]), ok('null')],
  ['eth_getTransactionByHash unknown', req('eth_getTransactionByHash', [ZERO1]), ok('null')],
  ['eth_getTransactionReceipt unknown', req('eth_getTransactionReceipt', [ZERO1]), ok('null')],
  // batches
  ['empty batch', '[]', err(-32600, 'empty batch', 'null')],
  ['batch of junk', '[1,"x",null]', `[${err(-32600, 'invalid request', 'null')},${err(-32600, 'invalid request', 'null')},${err(-32600, 'invalid request', 'null')}]`],
  ['batch in order, duplicate ids', `[${req('eth_blockNumber', [], 2)},${req('no_such', [], 2)},${req('eth_chainId', [], 'x')}]`, `[${ok('"0x2"', '2')},${err(-32601, 'the method no_such does not exist/is not available', '2')},${ok('"0x539"', '"x"')}]`],
  ['batch with a notification', `[${req('eth_chainId')},{"jsonrpc":"2.0","method":"eth_chainId"}]`, `[${ok('"0x539"')}]`],
  ['batch of notifications', '[{"jsonrpc":"2.0","method":"eth_chainId"}]', undefined],
];

describe('dispatch', () => {
  for (const [name, body, expected] of CASES) {
    test(name, async () => {
      const ctx = fakeContext();
      expect(await dispatch(body, ctx)).toBe(expected);
      expect(ctx.logged).toEqual([]);
    });
  }

  test('batch too large: one error with the first call id (go-ethereum respondWithBatchTooLarge)', async () => {
    const ctx = fakeContext(fakeChain(), { maxBatch: 2 });
    const body = `[{"jsonrpc":"2.0","method":"eth_chainId"},${req('eth_chainId', [], 5)},${req('eth_chainId', [], 6)}]`;
    expect(await dispatch(body, ctx)).toBe(`[${err(-32600, 'batch too large', '5')}]`);
    expect(await dispatch(`[${req('eth_chainId', [], 5)},${req('eth_chainId', [], 6)}]`, ctx)).toBe(`[${ok('"0x539"', '5')},${ok('"0x539"', '6')}]`);
  });

  test('InternalError: an unexpected failure is -32603 without detail; the detail is logged', async () => {
    const ctx = fakeContext(fakeChain({ recordError: new Error('secret detail at /home/x') }));
    const answer = await dispatch(req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]), ctx);
    expect(answer).toBe(err(-32603, 'method handler crashed'));
    expect(answer).not.toContain('secret');
    expect(ctx.logged.join('\n')).toContain('secret detail at /home/x');
  });

  test('a notification is executed but not answered', async () => {
    const chain = fakeChain();
    const ctx = fakeContext(chain);
    expect(await dispatch('{"jsonrpc":"2.0","method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer"}]}', ctx)).toBeUndefined();
    expect(chain.recordCalls).toBe(1);
  });

  test('deep nesting is a parse error, not a crash', async () => {
    const ctx = fakeContext();
    expect(await dispatch('['.repeat(20000) + ']'.repeat(20000), ctx)).toBe(err(-32700, 'parse error', 'null'));
    const nested = `{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer","tracerConfig":${'['.repeat(5000)}${']'.repeat(5000)}}]}`;
    expect(await dispatch(nested, ctx)).toBe(err(-32602, 'invalid tracerConfig for callTracer: expected a JSON object'));
  });

  test('a malformed request never changes a later answer', async () => {
    const ctx = fakeContext();
    const good = req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]);
    const before = await dispatch(good, ctx);
    for (const [, body] of CASES) await dispatch(body, ctx);
    await dispatch('{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"callTracer","tracerConfig":{"__proto__":{"flag":true}}}]}', ctx);
    expect(await dispatch(good, ctx)).toBe(before!);
    expect(before).toBe(ok(TRACED_BLOCK_1));
  });
});
