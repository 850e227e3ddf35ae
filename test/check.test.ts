// `blocktrace check` and `record` (issue 9): the shipped goldens pass, one changed byte fails with
// a clear diff, all three layouts are read, record then check passes, exit codes 0/1/2. Most cases
// run the command in-process (src/cli/check.ts with a loaded chain); a few spawn the real CLI.
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { check, type GoldenIo } from '../src/cli/check.ts';
import type { CheckCommand, RecordCommand } from '../src/cli/goldenArgs.ts';
import { record } from '../src/cli/record.ts';
import { compactJson } from '../src/compare/jsonText.ts';
import { readGolden } from '../src/golden/layouts.ts';
import { isPretty } from '../src/golden/pretty.ts';
import type { ChainView } from '../src/replay/chainView.ts';
import { loadChain } from '../src/replay/loadChain.ts';
import { PRAGUE, ROOT, runHarness } from './faces.ts';

const GOLDEN = join(ROOT, 'golden');
const CANCUN = join(GOLDEN, 'fixtures/cancun-devnet/fixture.json');
const EXAPI = join(GOLDEN, 'execution-apis/tests');
/** Tests here load chains or spawn the CLI; a busy machine needs more than bun's default 5 s. */
const SLOW = 60_000;
const work = mkdtempSync(join(tmpdir(), 'blocktrace-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const chains = new Map<string, Promise<ChainView>>();

/** Runs a command in-process; fixtures load once per file. */
async function run(options: CheckCommand | RecordCommand, progress = false) {
  const out = { stdout: '', stderr: '', log: [] as string[] };
  const sink = (key: 'stdout' | 'stderr') =>
    new Writable({
      write(chunk, _enc, done) {
        out[key] += String(chunk);
        done();
      },
    });
  const io: GoldenIo = {
    stdout: sink('stdout'),
    stderr: sink('stderr'),
    progress,
    log: (line) => out.log.push(line),
    load: async (path) => {
      if (!chains.has(path)) chains.set(path, loadChain(path));
      return chains.get(path)!.catch(() => undefined);
    },
  };
  const code = options.kind === 'check' ? await check(options, io) : await record(options, io);
  return { code, ...out };
}

const checkOf = (fixture: string, goldens: string[], over: Partial<CheckCommand> = {}): CheckCommand => ({
  kind: 'check',
  fixture,
  goldens,
  mode: 'bytes',
  reporter: 'text',
  filters: [],
  ignores: [],
  abiDirs: [],
  update: false,
  ...over,
});

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!;

describe('the shipped goldens pass', () => {
  test('the CLI, spawned: anvil pairs of prague-devnet', async () => {
    const { code, stdout, stderr } = await runHarness(['check', PRAGUE, join(GOLDEN, 'anvil/prague-devnet')]);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: '8 passed, 0 failed\n', stderr: '' });
  }, SLOW);

  test('execution-apis .io files against their own chain', async () => {
    const count = readGolden(EXAPI).exchanges.length;
    expect(count).toBeGreaterThan(50);
    expect(await run(checkOf(EXAPI, [EXAPI]))).toMatchObject({ code: 0, stdout: `${count} passed, 0 failed\n` });
  }, SLOW);

  test('several goldens at once, --filter by method and by name', async () => {
    const goldens = [join(GOLDEN, 'anvil/cancun-devnet'), join(GOLDEN, 'anvil-errors')];
    expect(await run(checkOf(CANCUN, goldens))).toMatchObject({ code: 0, stdout: '36 passed, 0 failed\n' });
    expect((await run(checkOf(CANCUN, goldens, { filters: ['block-0x3.'] }))).stdout).toBe('1 passed, 0 failed\n');
    expect((await run(checkOf(CANCUN, goldens, { filters: ['trace_block'] }))).stdout).toBe('28 passed, 0 failed\n');
    const none = await run(checkOf(CANCUN, goldens, { filters: ['eth_chainId'] }));
    expect([none.code, none.stdout, none.log]).toEqual([1, '', ['blocktrace: no recorded exchange matches --filter eth_chainId']]);
  }, SLOW);
});

describe('one changed byte fails with a clear diff', () => {
  const copy = join(work, 'prague-one-byte');
  cpSync(join(GOLDEN, 'anvil/prague-devnet'), copy, { recursive: true });
  const file = join(copy, 'block-0x1.trace_block.response.json');
  const original = readFileSync(file, 'utf8');
  const at = original.indexOf('"blockHash":"0x') + '"blockHash":"0x'.length;
  const digit = original[at]!;
  const changed = digit === '0' ? '1' : '0';
  writeFileSync(file, original.slice(0, at) + changed + original.slice(at + 1));
  const hash = (d: string): string => `"0x${d}${original.slice(at + 1, at + 64)}"`;
  const trace = JSON.parse(original).result[0];
  // block 1's first trace deploys a contract: the heading names it by the address it created
  const where = `${trace.result.address.slice(0, 6)}…${trace.result.address.slice(-4)}`;

  test('the CLI, spawned: exit 1, the case, where in the trace, the field and path, both values whole', async () => {
    const { code, stdout } = await runHarness(['check', PRAGUE, copy]);
    expect(code).toBe(1);
    expect(stdout).toBe(
      [
        `FAIL block-0x1.trace_block  (${file})`,
        '  1 difference',
        `  tx 0 (${trace.transactionHash.slice(0, 10)}…) › trace [] CREATE ${where}`,
        '    blockHash',
        `      expected: ${hash(changed)}`,
        `      got:      ${hash(digit)}`,
        // a caret under the digit that differs (after `"0x`)
        `${' '.repeat(16 + 3)}^`,
        '      at $.result[0].blockHash',
        '7 passed, 1 failed',
        '',
      ].join('\n'),
    );
  }, SLOW);

  test('--json: the schema\'s version, every difference whole and placed, its location as data', async () => {
    const { code, stdout } = await run(checkOf(PRAGUE, [copy], { reporter: 'json' }));
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ version: 2, fixture: PRAGUE, goldens: [copy], mode: 'bytes', passed: 7, failed: 1, skipped: 0 });
    const failed = report.cases.filter((c: { status: string }) => c.status === 'fail');
    expect(failed).toEqual([
      {
        status: 'fail',
        name: 'block-0x1.trace_block',
        file,
        golden: copy,
        layout: 'pair',
        methods: ['trace_block'],
        timeMs: expect.any(Number),
        differences: [
          {
            path: '$.result[0].blockHash',
            expected: hash(changed),
            got: hash(digit),
            where: expect.stringMatching(/^tx 0 \(0x/),
            field: 'blockHash',
            line: 1,
            location: {
              steps: ['result', 0, 'blockHash'],
              request: { method: 'trace_block', block: '0x1' },
              places: [
                { kind: 'tx', index: 0, hash: trace.transactionHash },
                { kind: 'trace', traceAddress: [], call: { type: 'create', to: trace.result.address } },
              ],
              field: { steps: ['blockHash'] },
            },
          },
        ],
      },
    ]);
  }, SLOW);

  test('progress goes to stderr only when asked (a terminal)', async () => {
    expect((await run(checkOf(PRAGUE, [copy]))).stderr).toBe('');
    const { stderr } = await run(checkOf(PRAGUE, [copy]), true);
    expect(stderr.startsWith('\r\x1b[K[1/8] block-0x0.trace_block')).toBe(true);
    expect(stderr.endsWith('\r\x1b[K')).toBe(true);
  }, SLOW);
});

describe('the array layout (Erigon rpc-tests), built from real recordings', () => {
  const dir = join(GOLDEN, 'anvil/cancun-devnet');
  const stems = readdirSync(dir).filter((f) => f.endsWith('.request.json')).map((f) => f.slice(0, -'.request.json'.length)).sort();
  const raw = (stem: string, side: 'request' | 'response'): string => readFileSync(join(dir, `${stem}.${side}.json`), 'utf8');
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortKeys) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)])) : v;

  // anvil's bytes embedded as they are, indented like Erigon's files
  const verbatim = join(work, 'verbatim.json');
  writeFileSync(verbatim, `[\n${stems.map((s) => `  {\n    "request": ${raw(s, 'request')},\n    "response": ${raw(s, 'response')}\n  }`).join(',\n')}\n]\n`);
  // the same recordings as Erigon stores them: keys sorted, pretty-printed, one "latest" case unrecorded
  const sorted = join(work, 'test_01.json');
  const items = stems.map((s) => ({ request: JSON.parse(raw(s, 'request')), response: sortKeys(JSON.parse(raw(s, 'response'))) }));
  items.push({ request: { id: 1, jsonrpc: '2.0', method: 'trace_block', params: ['latest'] }, response: { id: 1, jsonrpc: '2.0' } });
  writeFileSync(sorted, JSON.stringify(items, null, 4));

  test('bytes kept: passes byte for byte', async () => {
    expect(await run(checkOf(CANCUN, [verbatim]))).toMatchObject({ code: 0, stdout: '13 passed, 0 failed\n' });
  }, SLOW);

  test('key-sorted: fails byte for byte on key order, passes with --semantic', async () => {
    const bytes = await run(checkOf(CANCUN, [sorted]));
    expect(bytes.code).toBe(1);
    expect(bytes.stdout).toContain('FAIL test_01#1  (');
    expect(bytes.stdout).toContain('  response\n    (key order)\n      expected: ["id","jsonrpc","result"]\n                  ^^^^^\n      got:      ["jsonrpc","id","result"]\n                         ^^^^^\n      (the same keys in another order)\n      at $\n');
    expect(lastLine(bytes.stdout)).toBe('0 passed, 13 failed, 1 skipped');
    const semantic = await run(checkOf(CANCUN, [sorted], { mode: 'semantic' }));
    expect(semantic.code).toBe(0);
    expect(lastLine(semantic.stdout)).toBe('13 passed, 0 failed, 1 skipped');
    expect(semantic.stdout).toContain(`SKIP test_01#14  (${sorted}): no recorded result or error`);
  }, SLOW);
});

describe('record, then check on the same fixture', () => {
  const call = (method: string, params: unknown[], id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const lines = [
    call('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
    call('debug_traceBlockByNumber', ['0x2', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }], 'p'),
    '',
    '{"jsonrpc":"2.0","method":"eth_chainId","params":[]}',
    `[${call('eth_blockNumber', [])},${call('trace_block', ['0x1'], 2)}]`,
    call('trace_transaction', ['0x' + '00'.repeat(32)]),
    call('trace_block', ['0x1'], 3),
    call('trace_block', ['0x1'], 4),
  ];
  const requests = join(work, 'requests.txt');
  writeFileSync(requests, lines.join('\r\n'));
  const out = join(work, 'recorded');
  const compactOut = join(work, 'recorded-compact');
  const recordOf = (from: string, to: string, over: Partial<RecordCommand> = {}): RecordCommand => ({
    kind: 'record',
    fixture: PRAGUE,
    requests: from,
    out: to,
    filters: [],
    compact: false,
    ...over,
  });
  /** Each line's name, in the order of the file; sorted as a directory lists them below. */
  const names = [
    '0x1.debug_traceBlockByNumber.callTracer.withLog',
    '0x2.debug_traceBlockByNumber.prestateTracer.diffMode',
    'eth_chainId',
    'batch.eth_blockNumber+trace_block',
    '0x00000000.trace_transaction',
    '0x1.trace_block',
    '0x1.trace_block.2',
  ];
  const read = (dir: string, name: string, side: 'request' | 'response'): string => readFileSync(join(dir, `${name}.${side}.json`), 'utf8');

  test('request lines: a pair per request named from what it asks, the request as given, the answer pretty', async () => {
    const recorded = await run(recordOf(requests, out));
    expect(recorded).toMatchObject({ code: 0, stdout: `7 recorded in ${out}\n` });
    expect(readdirSync(out).sort()).toEqual(names.flatMap((n) => [`${n}.request.json`, `${n}.response.json`]).sort());
    expect(names.map((n) => read(out, n, 'request'))).toEqual(lines.filter((l) => l !== ''));
    // a notification gets an empty response; every other answer is JSON laid out on several lines
    expect(read(out, 'eth_chainId', 'response')).toBe('');
    for (const name of names.filter((n) => n !== 'eth_chainId')) expect([name, isPretty(read(out, name, 'response'))]).toEqual([name, true]);
  }, SLOW);

  test('--compact: the same answers, each on one line as it was sent', async () => {
    expect(await run(recordOf(requests, compactOut, { compact: true }))).toMatchObject({ code: 0, stdout: `7 recorded in ${compactOut}\n` });
    for (const name of names) {
      const compact = read(compactOut, name, 'response');
      expect([name, isPretty(compact), compactJson(read(out, name, 'response'))]).toEqual([name, false, compact]);
      expect(read(compactOut, name, 'request')).toBe(read(out, name, 'request'));
    }
    expect(await run(checkOf(PRAGUE, [compactOut]))).toMatchObject({ code: 0, stdout: '7 passed, 0 failed\n' });
  }, SLOW);

  // Needs check to compare a pair golden token for token (whitespace between tokens free).
  test('check passes on the pretty goldens it just recorded', async () => {
    expect(await run(checkOf(PRAGUE, [out]))).toMatchObject({ code: 0, stdout: '7 passed, 0 failed\n' });
  }, SLOW);

  test('record never overwrites', async () => {
    const again = await run(recordOf(requests, out));
    expect(again.code).toBe(2);
    expect(again.log).toEqual([`blocktrace: ${join(out, `${names[0]}.request.json`)} exists; record never overwrites (remove it or choose another --out)`]);
  }, SLOW);

  // issue 47: such a line used to be pinned as a golden of a parse error (or -32600), exit 0
  test('a line that is not JSON, or not a JSON-RPC request, is refused with its line number: exit 2, nothing written (the real CLI)', async () => {
    const bad: [string, string][] = [
      ['not json', 'not JSON: not json'],
      ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId"} trailing', 'not JSON: {"jsonrpc":"2.0","id":1,"method":"eth_chainId"} trailing'],
      ['{"id":1,"method":"eth_chainId"}', 'not a JSON-RPC request (no "jsonrpc": "2.0"): {"id":1,"method":"eth_chainId"}'],
      ['{"jsonrpc":"2.0","id":1}', 'not a JSON-RPC request (no "method"): {"jsonrpc":"2.0","id":1}'],
      ['"eth_chainId"', 'not a JSON-RPC request (a JSON string, not an object): "eth_chainId"'],
      ['[]', 'not a JSON-RPC request (an empty batch): []'],
      ['[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}, 5]', 'not a JSON-RPC request (item 2 of the batch: a JSON number, not an object): [{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},5]'],
      ['{"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}', 'not a JSON-RPC request (an "id" that is an object): {"jsonrpc":"2.0","id":{"a":1},"method":"eth_chainId"}'],
    ];
    for (const [i, [line, message]] of bad.entries()) {
      const file = join(work, `bad-${i}.txt`);
      // the bad line is the third: a good line and a blank one come before it, another good one after
      writeFileSync(file, [call('eth_chainId', []), '', line, call('trace_block', ['0x1'])].join('\n'));
      const dir = join(work, `bad-out-${i}`);
      const result = await runHarness(['record', PRAGUE, file, '--out', dir, '--no-cache']);
      expect([result.code, result.stdout, result.stderr]).toEqual([2, '', `blocktrace: ${file}:3: ${message}\n`]);
      expect(existsSync(dir)).toBe(false);
    }
  }, SLOW);

  test('from a golden in another layout (.io): its requests, under their names', async () => {
    const fromIo = join(work, 'from-io');
    expect(await run(recordOf(EXAPI, fromIo, { fixture: EXAPI, filters: ['eth_getBlockByNumber'] }))).toMatchObject({ code: 0 });
    expect(readdirSync(join(fromIo, 'eth_getBlockByNumber'))).toContain('get-genesis.response.json');
    const recorded = readFileSync(join(fromIo, 'eth_getBlockByNumber/get-genesis.response.json'), 'utf8');
    expect(isPretty(recorded)).toBe(true);
    expect(compactJson(recorded)).toBe(
      readFileSync(join(EXAPI, 'eth_getBlockByNumber/get-genesis.io'), 'utf8').split('\n').find((l) => l.startsWith('<<'))!.slice(3).trim(),
    );
    // needs check to compare a pair golden token for token, like the test above
    expect(await run(checkOf(EXAPI, [fromIo]))).toMatchObject({ code: 0, stdout: '10 passed, 0 failed\n' });
  }, SLOW);
});

describe('exit 2 names what cannot be read', () => {
  test('the CLI, spawned: a fixture that cannot be loaded', async () => {
    const { code, stdout, stderr } = await runHarness(['check', '/nonexistent/fixture.json', join(GOLDEN, 'anvil-errors')]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toContain('/nonexistent/fixture.json');
  }, SLOW);

  test('a missing golden, an unpaired request, a broken .io line: before the fixture loads', async () => {
    const broken = join(work, 'broken');
    cpSync(join(GOLDEN, 'execution-apis/tests/debug_traceBlockByNumber'), broken, { recursive: true });
    writeFileSync(join(broken, 'trace-genesis.io'), '>> {"jsonrpc":"2.0","id":1,"method":"eth_chainId"}\n<<< oops\n<< x\n<< y\n');
    const cases: [string, string][] = [
      [join(work, 'missing'), `blocktrace: cannot read golden ${join(work, 'missing')}: ENOENT`],
      [broken, `blocktrace: ${join(broken, 'trace-genesis.io')}:3: a "<<" line without a ">>" line before it`],
    ];
    for (const [golden, message] of cases) {
      const result = await run(checkOf('/nonexistent/fixture.json', [join(GOLDEN, 'anvil-errors'), golden]));
      expect([result.code, result.stdout, result.log]).toEqual([2, '', [message]]);
    }
    const unpaired = join(work, 'unpaired');
    cpSync(join(GOLDEN, 'anvil-errors'), unpaired, { recursive: true });
    rmSync(join(unpaired, 'trace_block.block-bool.response.json'));
    const result = await run(checkOf(PRAGUE, [unpaired]));
    expect([result.code, result.log]).toEqual([2, [`blocktrace: ${join(unpaired, 'trace_block.block-bool.request.json')}: no trace_block.block-bool.response.json beside it`]]);
  }, SLOW);
});
