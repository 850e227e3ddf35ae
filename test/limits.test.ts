// Limits with clear errors: the trace deadline (request `timeout` as go-ethereum parses it, and the
// server default), the response size (-32003 "response too large", go-ethereum's batch rule), and
// the command-line options that set them.
import { describe, expect, test } from 'bun:test';
import { parseArgs } from '../src/cli/args.ts';
import type { ChainBlock } from '../src/replay/chainView.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { parseGoDuration } from '../src/rpc/goDuration.ts';
import type { BlockRecording } from '../src/trace/types.ts';
import { FAKE_TX_HASHES, fakeChain, fakeContext } from './rpc/fakeChain.ts';

const A1 = '0x' + Buffer.from(FAKE_TX_HASHES[0]!).toString('hex');
const req = (method: string, params: unknown, id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const TIMEOUT = '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"execution timeout"}}';
const TOO_LARGE = (id: string) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32003,"message":"response too large"}}`;

/** The fake chain, with recordings that take `ms` and are shared and cached like replay/chain.ts's. */
function slowChain(ms: number) {
  const cache = new Map<bigint, Promise<BlockRecording>>();
  // `recorded`: recordings finished; `recording(n)`: block n's, once asked for
  const chain = Object.assign(fakeChain(), { recorded: 0, recording: (n: bigint) => cache.get(n)! });
  const fast = chain.recordBlock.bind(chain);
  chain.recordBlock = (block: ChainBlock) => {
    let recording = cache.get(block.number);
    if (recording === undefined) {
      recording = Bun.sleep(ms).then(async () => {
        const done = await fast(block);
        chain.recorded++;
        return done;
      });
      cache.set(block.number, recording);
    }
    return recording;
  };
  return chain;
}

const trace = (timeout?: string) => req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', ...(timeout === undefined ? {} : { timeout }) }]);

describe('time.ParseDuration (tracer options "timeout", --trace-timeout)', () => {
  const OK: readonly [string, number][] = [
    ['5s', 5000], ['300ms', 300], ['1m30s', 90_000], ['1.5h', 5_400_000], ['+2s', 2000], ['-1s', -1000],
    ['.5s', 500], ['1.s', 1000], ['1µs', 0.001], ['1μs', 0.001], ['1000ns', 0.001], ['0', 0], ['2562047h', 2562047 * 3_600_000],
  ];
  for (const [text, ms] of OK) test(JSON.stringify(text), () => expect(parseGoDuration(text)).toBeCloseTo(ms, 6));
  const BAD: readonly [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['1', 'time: missing unit in duration "1"'],
    ['soon', 'time: invalid duration "soon"'],
    ['5 s', 'time: unknown unit " s" in duration "5 s"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['.', 'time: invalid duration "."'],
  ];
  for (const [text, message] of BAD) test(`${JSON.stringify(text)} is refused with Go's text`, () => expect(() => parseGoDuration(text)).toThrow(message));
});

describe('trace deadline', () => {
  test('a request past its own "timeout" gets -32000 execution timeout; the recording goes on and is served later', async () => {
    const chain = slowChain(300);
    const ctx = fakeContext(chain);
    const answer = await dispatch(trace('50ms'), ctx);
    expect(answer).toBe(TIMEOUT);
    // the answer did not wait for the recording, which goes on
    expect(chain.recorded).toBe(0);
    await chain.recording(1n);
    expect(chain.recorded).toBe(1);
    expect(await dispatch(trace('50ms'), ctx)).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
    expect(chain.recordCalls).toBe(1);
  });
  test('the server default applies to debug_trace*, trace_block and trace_transaction', async () => {
    const ctx = fakeContext(slowChain(300), { traceTimeoutMs: 40 });
    expect(await dispatch(trace(), ctx)).toBe(TIMEOUT);
    expect(await dispatch(req('debug_traceTransaction', [A1, { tracer: 'callTracer' }]), ctx)).toBe(TIMEOUT);
    expect(await dispatch(req('trace_block', ['0x1']), ctx)).toBe(TIMEOUT);
    expect(await dispatch(req('trace_transaction', [A1]), ctx)).toBe(TIMEOUT);
  });
  test("a request's own timeout overrides the server default", async () => {
    const ctx = fakeContext(slowChain(150), { traceTimeoutMs: 20 });
    expect(await dispatch(trace('2s'), ctx)).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
  });
  test('"0s" and negative timeouts have already passed (go-ethereum context.WithTimeout), even for a cached block', async () => {
    const ctx = fakeContext(fakeChain());
    expect(await dispatch(trace(), ctx)).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
    expect(await dispatch(trace('0s'), ctx)).toBe(TIMEOUT);
    expect(await dispatch(trace('-1s'), ctx)).toBe(TIMEOUT);
  });
  test('a deadline beyond what a timer holds is no deadline (not an instant one)', async () => {
    const ctx = fakeContext(slowChain(30));
    expect(await dispatch(trace('1000000h'), ctx)).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
  });
  test('an unparsable timeout is -32000 with time.ParseDuration\'s text, before anything runs', async () => {
    const chain = fakeChain();
    expect(await dispatch(trace('soon'), fakeContext(chain))).toBe('{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"time: invalid duration \\"soon\\""}}');
    expect(chain.recordCalls).toBe(0);
  });
  test('no timer outlives its request (a finished trace leaves nothing pending)', async () => {
    const ctx = fakeContext(fakeChain(), { traceTimeoutMs: 60_000 });
    // the timers set while the requests run, less those cleared or fired: a leak would keep a
    // harness waiting 60 s before it exits
    const live = new Set<unknown>();
    const { setTimeout: set, clearTimeout: clear } = globalThis;
    globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
      const handle: unknown = set(() => {
        live.delete(handle);
        fn();
      }, ms, ...rest);
      if ((ms ?? 0) >= 60_000) live.add(handle);
      return handle;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((handle: Parameters<typeof clearTimeout>[0]) => {
      live.delete(handle);
      clear(handle);
    }) as typeof clearTimeout;
    let answers: (string | undefined)[];
    try {
      answers = [];
      for (let i = 0; i < 100; i++) answers.push(await dispatch(trace(), ctx));
    } finally {
      globalThis.setTimeout = set;
      globalThis.clearTimeout = clear;
    }
    expect(answers.every((a) => a?.startsWith('{"jsonrpc":"2.0","id":1,"result":['))).toBe(true);
    expect(live.size).toBe(0);
  });
});

describe('response size (-32003 "response too large")', () => {
  const big = req('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }], 7);
  test('a single result over the limit is refused with the request id; under it, served', async () => {
    expect(await dispatch(big, fakeContext(fakeChain(), { maxResponse: 50 }))).toBe(TOO_LARGE('7'));
    expect(await dispatch(big, fakeContext(fakeChain(), { maxResponse: 0 }))).toStartWith('{"jsonrpc":"2.0","id":7,"result":');
    expect(await dispatch(req('eth_chainId', [], 8), fakeContext(fakeChain(), { maxResponse: 50 }))).toBe('{"jsonrpc":"2.0","id":8,"result":"0x539"}');
  });
  test('a batch: once the results add up past the limit, every later call gets the error (go-ethereum handleBatch)', async () => {
    const ctx = fakeContext(fakeChain(), { maxResponse: 20 });
    const body = `[${req('web3_clientVersion', [], 1)},${req('web3_clientVersion', [], 2)},{"jsonrpc":"2.0","method":"eth_chainId"},${req('eth_chainId', [], 3)},{"id":4}]`;
    // "blocktrace/test" is 17 bytes: the first result fits, the second crosses the limit and is kept
    expect(await dispatch(body, ctx)).toBe(
      `[{"jsonrpc":"2.0","id":1,"result":"blocktrace/test"},{"jsonrpc":"2.0","id":2,"result":"blocktrace/test"},${TOO_LARGE('3')},${TOO_LARGE('4')}]`,
    );
  });
});

describe('command line', () => {
  test('--max-response, --trace-timeout and --cors are read; the first two also for the harness', () => {
    expect(parseArgs(['serve', '--max-response', '1MiB', '--trace-timeout', '1m30s', '--cors', 'http://a.test, https://b.test'])).toMatchObject({
      kind: 'serve', maxResponse: 1024 * 1024, traceTimeoutMs: 90_000, cors: ['http://a.test', 'https://b.test'],
    });
    expect(parseArgs(['--trace-timeout=0', '--max-response=0', '--replay-file', 'f.json'])).toMatchObject({ kind: 'replay', maxResponse: 0, traceTimeoutMs: 0 });
    expect(parseArgs(['serve'])).toMatchObject({ kind: 'serve', host: '127.0.0.1', cors: undefined });
  });
  test('bad values are usage errors', () => {
    for (const argv of [['serve', '--trace-timeout', '5'], ['serve', '--trace-timeout', '-1s'], ['serve', '--max-response', 'big'], ['serve', '--cors', ''], ['--cors', 'x', '--replay-file', 'f']]) {
      expect(parseArgs(argv).kind).toBe('usage');
    }
  });
});
