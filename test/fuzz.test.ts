// Property-based fuzzing of the dispatcher (fast-check): thousands of generated and mutated request
// bodies, each answered with a well-formed JSON-RPC message carrying the right code (or nothing for
// a notification), nothing thrown, no internal error, no internals echoed, and valid requests
// answered with the same bytes after the storm as before it. FUZZ_RUNS scales every property.
import { beforeAll, describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { bytesToHex } from '@ethereumjs/util';
import { goJson } from '../src/encoding/json.ts';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext, type RpcContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { findMethod } from '../src/rpc/methods.ts';
import { createApp } from '../src/server/app.ts';
import { BODIES, PRAGUE } from './faces.ts';

const SCALE = Number(process.env['FUZZ_RUNS'] ?? '1');
const runs = (n: number): number => Math.max(1, Math.round(n * SCALE));
/** Per test: bun's default is 5 s, and a shared CI box may be slow. */
const TIMEOUT = 60_000 * Math.max(1, SCALE);

const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32001, -32003]);
const PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}';
const INVALID_REQUEST = (id = 'null') => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"invalid request"}}`;

let ctx: RpcContext;
const logged: string[] = [];
/** What the dispatcher logged besides the once-only notice of a tracer or method --all-tracers would allow: crashes. */
const crashes = (): string[] => logged.filter((line) => !line.endsWith('start blocktrace with --all-tracers to answer it'));
const before: string[] = [];
let block1Tx = '';
let block1Hash = '';
/** A sender of the fixture chain (the anvil corpus's first dev account). */
const SENDER = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

beforeAll(async () => {
  ctx = createContext(await loadChain(PRAGUE), { log: (line) => logged.push(line) });
  const block = ctx.chain.blockByNumber(1n)!;
  block1Hash = bytesToHex(block.hash);
  block1Tx = bytesToHex(block.block.transactions[0]!.hash());
  for (const body of BODIES) before.push((await dispatch(body, ctx))!);
}, 60_000);

interface Wire {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code: unknown; message: unknown };
}

/** One response object: the envelope is right, exactly one of result/error, a known code, no internals. */
function checkMessage(m: Wire): void {
  expect(m.jsonrpc).toBe('2.0');
  expect('id' in m).toBe(true);
  expect(typeof m.id === 'object' && m.id !== null).toBe(false);
  expect(('result' in m) !== ('error' in m)).toBe(true);
  if (m.error !== undefined) {
    expect(Object.keys(m.error)).toEqual(['code', 'message']);
    expect(KNOWN_CODES.has(m.error.code as number)).toBe(true);
    expect(typeof m.error.message).toBe('string');
  }
}

/** Dispatches and checks what holds for every body; returns the raw answer. */
async function answer(body: string): Promise<string | undefined> {
  const text = await dispatch(body, ctx);
  if (text !== undefined) {
    const parsed = JSON.parse(text) as Wire | Wire[];
    if (Array.isArray(parsed)) {
      expect(parsed.length).toBeGreaterThan(0);
      parsed.forEach(checkMessage);
    } else {
      checkMessage(parsed);
    }
    expect(text).not.toMatch(/\/work\/|node_modules|\n\s+at |method handler crashed/);
  }
  expect(crashes()).toEqual([]);
  return text;
}

// ---- arbitraries -------------------------------------------------------------------------------

/** Text with lone surrogates and control characters mixed in (what a bad UTF-8 decode can yield). */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.array(fc.constantFrom('\ud800', '\udfff', '\u0000', '\u2028', '<', '&', '"', '\\', 'é', '\uFFFD'), { maxLength: 8 }).map((a) => a.join('')),
);

/** An id as a client may send it: echoed back verbatim. Huge and odd-looking numbers included. */
const idRaw = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.bigInt({ min: -(10n ** 80n), max: 10n ** 80n }).map(String),
  fc.constantFrom('1e400', '-0', '0.000000000000000000001', '1E+2', '9'.repeat(1000), 'null'),
  nastyString.map((s) => JSON.stringify(s)),
);

/** Real requests, valid or nearly so, over the chain's blocks and transactions. */
const realRequest = fc.oneof(
  fc.record({ b: fc.constantFrom('0x1', '0x2', '0x7', 'latest', '0x0', '0x3f4'), t: fc.constantFrom('callTracer', 'prestateTracer') }).map(({ b, t }) => ({
    method: 'debug_traceBlockByNumber',
    params: [b, { tracer: t, tracerConfig: t === 'callTracer' ? { withLog: true } : { diffMode: true }, timeout: '10s' }] as unknown[],
  })),
  fc.constant(0).map(() => ({ method: 'debug_traceBlockByHash', params: [block1Hash, { tracer: 'callTracer' }] as unknown[] })),
  fc.constant(0).map(() => ({ method: 'debug_traceTransaction', params: [block1Tx, { tracer: 'prestateTracer' }] as unknown[] })),
  fc.constantFrom('0x1', '0x5', 'latest', 7).map((b) => ({ method: 'trace_block', params: [b] as unknown[] })),
  fc.constant(0).map(() => ({ method: 'trace_transaction', params: [block1Tx] as unknown[] })),
  fc.constantFrom('0x1', 'latest').map((b) => ({ method: 'eth_getBlockByNumber', params: [b, false] as unknown[] })),
  fc.constant(0).map(() => ({ method: 'eth_getTransactionReceipt', params: [block1Tx] as unknown[] })),
  fc.constantFrom('eth_chainId', 'eth_blockNumber', 'net_version', 'web3_clientVersion').map((method) => ({ method, params: [] as unknown[] })),
  // the Otterscan API, read as anvil reads it
  fc.constantFrom(0, 2, 7, 1000).map((b) => ({ method: 'ots_searchTransactionsBefore', params: [SENDER, b, 2] as unknown[] })),
  fc.constantFrom(0, 2, 7).map((b) => ({ method: 'ots_searchTransactionsAfter', params: [SENDER, b, 3] as unknown[] })),
  fc.constantFrom(0, 1, 5, 1000).map((b) => ({ method: 'ots_getBlockTransactions', params: [b, 0, 3] as unknown[] })),
  fc.constant(0).map(() => ({ method: 'ots_traceTransaction', params: [block1Tx] as unknown[] })),
  fc.constantFrom(0, 3, 1_000_000).map((n) => ({ method: 'ots_getTransactionBySenderAndNonce', params: [SENDER, n] as unknown[] })),
  fc.constantFrom(1, 'latest', 1000).map((b) => ({ method: 'ots_getBlockDetails', params: [b] as unknown[] })),
);

/** Any JSON value, including deep, long and huge ones. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((n) => JSON.parse('['.repeat(n) + ']'.repeat(n))) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), '0x' + 'f'.repeat(70_000), -1, 2 ** 64, 1e308, -0) },
  { weight: 1, arbitrary: nastyString },
);

/** Every position of a value: [] is the value itself, then its keys and indexes, depth first. */
function positions(value: unknown, path: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => positions(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) positions(v, [...path, k], out);
  return out;
}

function replaceAt(value: unknown, path: readonly (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head!] = replaceAt(copy[head!], rest, replacement);
  return copy;
}

/** A real request with one position (envelope or params, at any depth) replaced by any JSON value. */
const mutatedRequest = fc
  .tuple(realRequest, idRaw, fc.nat(), anyJson)
  .map(([r, id, pick, replacement]) => {
    const request = { jsonrpc: '2.0', id: 0, method: r.method, params: r.params };
    const all = positions(request);
    const mutated = replaceAt(request, all[pick % all.length]!, replacement);
    return JSON.stringify(mutated).replace(/^\{"jsonrpc":"2\.0","id":0,/, `{"jsonrpc":"2.0","id":${id},`);
  });

/** [body, expected answer]: bodies whose answer is known exactly. */
const exactCase: fc.Arbitrary<readonly [string, string | undefined]> = fc.oneof(
  // not JSON at all, whatever follows the bad start
  fc.tuple(fc.constantFrom('}', ']', ',', ':', 'x', "'", '#', 'NaN', 'undefined', '{,', '[,', '{1', 'tru ', '-a', '"\u0001', '{"a" ,', '\ufeff{'), fc.string({ maxLength: 60 }))
    .map(([bad, rest]) => [bad + rest, PARSE_ERROR] as const),
  // deeper than encoding/json's 10000 levels; a scalar inside 10000 containers is still fine
  fc.integer({ min: 10_001, max: 12_000 }).map((n) => ['['.repeat(n) + ']'.repeat(n), PARSE_ERROR] as const),
  fc.constantFrom(9_998, 9_999, 10_000).map((n) => [
    `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":${'['.repeat(n) + '1' + ']'.repeat(n)}}`,
    n < 10_000 ? '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"too many arguments, want at most 0"}}' : PARSE_ERROR,
  ] as const),
  // JSON, but no request
  fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), nastyString)
    .map((v) => [JSON.stringify(v), INVALID_REQUEST()] as const),
  fc.tuple(idRaw, fc.oneof(fc.constant('"1.0"'), fc.constant('2'), fc.constant('null'), fc.constant('"2.0 "'))).map(([id, version]) =>
    [`{"jsonrpc":${version},"id":${id},"method":"eth_chainId"}`, INVALID_REQUEST(id)] as const,
  ),
  fc.tuple(idRaw, fc.oneof(fc.integer().map(String), fc.constant('[]'), fc.constant('{}'), fc.constant('true'))).map(([id, method]) =>
    [`{"jsonrpc":"2.0","id":${id},"method":${method}}`, INVALID_REQUEST(id)] as const,
  ),
  fc.oneof(fc.constant('{}'), fc.constant('[1]'), fc.constant('{"a":[]}')).map((id) => [`{"jsonrpc":"2.0","id":${id},"method":"eth_chainId"}`, INVALID_REQUEST()] as const),
  // unknown methods, any text
  fc.tuple(idRaw, nastyString.filter((m) => m !== '' && findMethod(m.replace(/[\ud800-\udfff]/g, '\uFFFD')) === undefined)).map(([id, method]) => {
    const seen = method.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\uFFFD');
    return [
      `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}}`,
      `{"jsonrpc":"2.0","id":${id},"error":${goJson({ code: -32601, message: `the method ${seen} does not exist/is not available` })}}`,
    ] as const;
  }),
  fc.integer({ min: 2049, max: 200_000 }).map((n) => [
    `{"jsonrpc":"2.0","id":1,"method":"${'m'.repeat(n)}"}`,
    `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"method name too long: ${n} \\u003e 2048"}}`,
  ] as const),
  // notifications and responses: no answer
  realRequest.map((r) => [JSON.stringify({ jsonrpc: '2.0', method: r.method, params: r.params }), undefined] as const),
  fc.tuple(idRaw, anyJson).map(([id, result]) => [`{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(result)}}`, undefined] as const),
);

/** Wrong JSON kinds at each parameter position of each method: always -32602. */
const WRONG_KINDS: Record<string, readonly fc.Arbitrary<unknown>[]> = {
  block: [fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue().filter((v) => typeof v === 'object'), fc.string().filter((s) => !/^(0x[0-9a-f]{1,16}|latest|earliest|pending|safe|finalized)$/.test(s))],
  serdeBlock: [fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.integer({ max: -1 }), fc.double({ min: 0.5, max: 1e6, noNaN: true }).filter((d) => !Number.isInteger(d))],
  hash: [fc.integer(), fc.boolean(), fc.constant({}), fc.constant([]), fc.string({ maxLength: 63 })],
  options: [fc.integer(), fc.boolean(), fc.string(), fc.array(fc.integer())],
  bool: [fc.integer(), fc.string(), fc.constant({}), fc.constant([])],
  // anvil's EthRequest (rpc/anvilParams.ts)
  uint: [fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.string(), fc.integer({ max: -1 }), fc.double({ min: 0.5, max: 1e6, noNaN: true }).filter((d) => !Number.isInteger(d))],
  address: [fc.integer(), fc.boolean(), fc.constant(null), fc.constant({}), fc.string({ maxLength: 39 })],
  numeric: [fc.boolean(), fc.constant(null), fc.constant({}), fc.constant([]), fc.integer({ max: -1 }), fc.constantFrom('abc', '-1', ' 1', '0x1g', '1.5')],
};
const SIGNATURES: readonly [string, readonly string[]][] = [
  ['debug_traceBlockByNumber', ['block', 'options']],
  ['debug_traceBlockByHash', ['hash', 'options']],
  ['debug_traceTransaction', ['hash', 'options']],
  ['trace_block', ['serdeBlock']],
  ['trace_transaction', ['hash']],
  ['eth_getBlockByNumber', ['block', 'bool']],
  ['eth_getBlockByHash', ['hash', 'bool']],
  ['eth_getTransactionByHash', ['hash']],
  ['eth_getTransactionReceipt', ['hash']],
  ['ots_getBlockTransactions', ['uint', 'uint', 'uint']],
  ['ots_searchTransactionsBefore', ['address', 'uint', 'uint']],
  ['ots_searchTransactionsAfter', ['address', 'uint', 'uint']],
  ['ots_getTransactionBySenderAndNonce', ['address', 'numeric']],
  ['ots_getContractCreator', ['address']],
  ['ots_traceTransaction', ['hash']],
  ['ots_getBlockDetails', ['serdeBlock']],
  ['ots_hasCode', ['address', 'serdeBlock']],
];
const wrongTypeCase = fc
  .constantFrom(...SIGNATURES)
  .chain(([method, kinds]) =>
    fc.nat({ max: kinds.length - 1 }).chain((at) =>
      fc.oneof(...WRONG_KINDS[kinds[at]!]!).map((bad) => {
        const valid: Record<string, unknown> = { block: '0x1', serdeBlock: '0x1', hash: block1Tx, options: { tracer: 'callTracer' }, bool: false, uint: 1, address: SENDER, numeric: 0 };
        const params = kinds.map((k, i) => (i === at ? bad : valid[k]));
        return JSON.stringify({ jsonrpc: '2.0', id: 5, method, params });
      }),
    ),
  );
const paramsNotArray = fc
  .tuple(fc.constantFrom(...SIGNATURES.map(([m]) => m).filter((m) => !m.startsWith('ots_')), 'eth_chainId'), fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }))))
  .map(([method, params]) => JSON.stringify({ jsonrpc: '2.0', id: 6, method, params }));

// ---- properties --------------------------------------------------------------------------------

describe('fuzzing the dispatcher', () => {
  test('bodies with a known answer get exactly that answer', async () => {
    await fc.assert(
      fc.asyncProperty(exactCase, async ([body, expected]) => {
        expect(await answer(body)).toBe(expected);
      }),
      { numRuns: runs(1500) },
    );
  }, TIMEOUT);

  test('a wrong JSON kind at any parameter position is -32602', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(wrongTypeCase, paramsNotArray), async (body) => {
        const parsed = JSON.parse((await answer(body))!) as Wire;
        expect(parsed.error?.code).toBe(-32602);
      }),
      { numRuns: runs(800) },
    );
  }, TIMEOUT);

  test('the Otterscan methods (read as anvil reads them): params neither a list, a map nor null are an invalid request, a map -32602', async () => {
    const otsMethod = fc.constantFrom(...SIGNATURES.map(([m]) => m).filter((m) => m.startsWith('ots_')), 'ots_getApiLevel', 'erigon_getHeaderByNumber');
    await fc.assert(
      fc.asyncProperty(otsMethod, fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }))), async (method, params) => {
        const text = (await answer(JSON.stringify({ jsonrpc: '2.0', id: 6, method, params })))!;
        if (typeof params === 'object') expect((JSON.parse(text) as Wire).error?.code).toBe(-32602);
        else expect(text).toBe('{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"Invalid request"}}');
      }),
      { numRuns: runs(300) },
    );
  }, TIMEOUT);

  test('real requests with any position replaced by any value: a well-formed answer, the id echoed', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedRequest, async (body) => {
        const text = await answer(body);
        // the whole request replaced by an array is a batch: its items were checked by answer()
        if (text === undefined || text.startsWith('[')) return;
        const id = /^\{"jsonrpc":"2\.0","id":(.*?),"(?:result|error)"/s.exec(text);
        expect(id).not.toBeNull();
      }),
      { numRuns: runs(800) },
    );
  }, TIMEOUT);

  test('batches of mixed junk: one answer per call, in order, notifications silent', async () => {
    const item = fc.oneof(
      exactCase.filter(([body]) => body.length < 5000 && readsAsJson(body)).map(([body, expected]) => ({ body, expected })),
      realRequest.map((r) => ({ body: JSON.stringify({ jsonrpc: '2.0', id: 'r', ...r }), expected: 'any' as const })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 110 }), async (items) => {
        const text = await answer(`[${items.map((i) => i.body).join(',')}]`);
        if (items.length === 0) return expect(text).toBe('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}');
        if (items.length > 100) return expect(text).toMatch(/^\[\{"jsonrpc":"2\.0","id":[^,]*,"error":\{"code":-32600,"message":"batch too large"\}\}\]$/);
        const expected = items.filter((i) => i.expected !== undefined);
        if (expected.length === 0) return expect(text).toBeUndefined();
        const got = JSON.parse(text!) as unknown[];
        expect(got.length).toBe(expected.length);
        got.forEach((g, i) => {
          const want = expected[i]!.expected;
          // a parse error cannot happen inside a batch: bad items were filtered out above
          if (want !== 'any') expect(JSON.stringify(g)).toBe(JSON.stringify(JSON.parse(want!)));
        });
      }),
      { numRuns: runs(250) },
    );
  }, TIMEOUT);

  test('invalid UTF-8 through the HTTP face: decoded with U+FFFD, answered, never a crash', async () => {
    const app = createApp({ ctx, maxBody: 1024 * 1024 });
    const valid = new TextEncoder().encode('{"jsonrpc":"2.0","id":"ab","method":"eth_chainId"}');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 }), async (noise, at, bad) => {
        for (const bytes of [noise, splice(valid, at % valid.length, bad.map((b) => 0x80 | b))]) {
          const res = await app.handle(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: bytes }));
          expect(res.status).toBe(200);
          const text = await res.text();
          if (text !== '') checkMessage(JSON.parse(text) as Wire);
          expect(crashes()).toEqual([]);
        }
      }),
      { numRuns: runs(300) },
    );
  }, TIMEOUT);

  test('after all of it, valid requests answer the same bytes as before', async () => {
    for (const [i, body] of BODIES.entries()) expect(await dispatch(body, ctx)).toBe(before[i]!);
    expect(crashes()).toEqual([]);
  });
});

function readsAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function splice(bytes: Uint8Array, at: number, insert: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + insert.length);
  out.set(bytes.subarray(0, at));
  out.set(insert, at);
  out.set(bytes.subarray(at), at + insert.length);
  return out;
}
