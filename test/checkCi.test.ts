// `check` as a CI pipeline drives it (issue 34): the update loop (`--update` rewrites the failing
// response files record wrote, in their own form, and leaves other clients' recordings), JUnit read
// back by a JUnit parser from npm, GitHub annotations, `--shard` covering each case exactly once, the
// replay cache options, and bad input refused with one stderr line before any file is touched.
// Every command is the real CLI, spawned.
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { PRAGUE, ROOT, runHarness } from './faces.ts';

const SLOW = 60_000;
const GOLDEN = join(ROOT, 'golden');
const work = mkdtempSync(join(tmpdir(), 'blocktrace-check-ci-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const call = (method: string, params: unknown[]): string => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const REQUESTS = [
  call('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
  call('debug_traceBlockByNumber', ['0x2', { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
  call('trace_block', ['0x2']),
  call('eth_getBlockReceipts', ['0x2']),
];
const requestsFile = join(work, 'requests.txt');
writeFileSync(requestsFile, REQUESTS.join('\n'));

/** Goldens of the prague-devnet chain recorded by `record` into a new directory. */
async function recorded(name: string, ...options: string[]): Promise<string> {
  const out = join(work, name);
  const run = await runHarness(['record', PRAGUE, requestsFile, '--out', out, ...options]);
  expect(run.code).toBe(0);
  return out;
}

/** `"gasUsed": "0x…"` → one more, in the first place it occurs (pretty or compact). */
function bumpGas(file: string): void {
  const text = readFileSync(file, 'utf8');
  const changed = text.replace(/("gasUsed": ?"0x)([0-9a-f]+)"/, (_m, head: string, hex: string) => `${head}${(BigInt(`0x${hex}`) + 1n).toString(16)}"`);
  expect(changed).not.toBe(text);
  writeFileSync(file, changed);
}

const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1)!;

describe('the update loop', () => {
  test('--update rewrites the failing pair files in their own form, leaves an .io file, exits 0; the next check passes them', async () => {
    const pretty = await recorded('update-pretty');
    const compact = await recorded('update-compact', '--compact');
    const prettyFile = join(pretty, '0x2.trace_block.response.json');
    const compactFile = join(compact, '0x1.debug_traceBlockByNumber.callTracer.withLog.response.json');
    const [prettyBefore, compactBefore] = [readFileSync(prettyFile, 'utf8'), readFileSync(compactFile, 'utf8')];
    expect(prettyBefore).toContain('\n  "id": 1,\n');
    expect(compactBefore).not.toContain('\n');
    bumpGas(prettyFile);
    bumpGas(compactFile);
    // another client's recording in the .io layout, with a wrong answer: reported, never rewritten
    const io = join(work, 'update-io');
    mkdirSync(io);
    const ioText = `// recorded elsewhere\n>> ${call('eth_chainId', [])}\n<< {"jsonrpc":"2.0","id":1,"result":"0x1"}\n`;
    writeFileSync(join(io, 'chain-id.io'), ioText);

    const failing = await runHarness(['check', PRAGUE, pretty, compact, io]);
    expect([failing.code, lastLine(failing.stdout)]).toEqual([1, '6 passed, 3 failed']);

    const update = await runHarness(['check', PRAGUE, pretty, compact, io, '--update']);
    expect(update.code).toBe(0);
    expect(lastLine(update.stdout)).toBe('6 passed, 3 failed');
    expect(update.stderr.split('\n').filter((l) => l !== '').sort()).toEqual([
      `left chain-id  (${join(io, 'chain-id.io')}): an .io file is another client's recording; --update never rewrites it`,
      `updated 0x1.debug_traceBlockByNumber.callTracer.withLog  (${compactFile})`,
      `updated 0x2.trace_block  (${prettyFile})`,
    ]);
    // the recorded bytes again, each in its form; no temporary file left beside them
    expect(readFileSync(prettyFile, 'utf8')).toBe(prettyBefore);
    expect(readFileSync(compactFile, 'utf8')).toBe(compactBefore);
    expect(readFileSync(join(io, 'chain-id.io'), 'utf8')).toBe(ioText);
    for (const dir of [pretty, compact, io]) expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);

    const after = await runHarness(['check', PRAGUE, pretty, compact, io]);
    expect([after.code, lastLine(after.stdout)]).toEqual([1, '8 passed, 1 failed']);
  }, SLOW);

  test('--update with nothing it may rewrite, or with a golden it cannot write: exit 2, one line, no file touched', async () => {
    const io = join(GOLDEN, 'execution-apis/tests/debug_getRawHeader');
    const none = await runHarness(['check', join(GOLDEN, 'execution-apis/tests'), io, '--update']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe("blocktrace: --update: no golden here was written by record (NAME.response.json); .io files and JSON arrays are other clients' recordings and are never rewritten\n");
    // a response file whose parent is a file cannot be rewritten, whoever runs it (root included)
    const blocked = join(work, 'update-blocked');
    mkdirSync(blocked);
    writeFileSync(join(blocked, 'a'), 'not a directory');
    const pretty = await recorded('update-blocked-pretty');
    const before = readdirSync(pretty).map((f) => readFileSync(join(pretty, f), 'utf8'));
    const withBad = join(work, 'update-blocked-golden');
    cpSync(pretty, withBad, { recursive: true });
    bumpGas(join(withBad, '0x2.trace_block.response.json'));
    const changed = readFileSync(join(withBad, '0x2.trace_block.response.json'), 'utf8');
    // a symbolic link to a path below a file: readable name, unwritable target
    const { symlinkSync } = await import('node:fs');
    rmSync(join(withBad, '0x2.eth_getBlockReceipts.response.json'));
    symlinkSync(join(blocked, 'a', 'b'), join(withBad, '0x2.eth_getBlockReceipts.response.json'));
    const run = await runHarness(['check', PRAGUE, withBad, '--update']);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(join(withBad, '0x2.trace_block.response.json'), 'utf8')).toBe(changed);
    expect(readdirSync(pretty).map((f) => readFileSync(join(pretty, f), 'utf8'))).toEqual(before);
  }, SLOW);
});

describe('CI reports', () => {
  test('--reporter junit: one testsuite per golden, a testcase per case with its time, the grouped differences in the failure (junit2json)', async () => {
    const a = await recorded('junit-a');
    const b = join(GOLDEN, 'anvil/prague-devnet');
    bumpGas(join(a, '0x2.trace_block.response.json'));
    const run = await runHarness(['check', PRAGUE, a, b, '--reporter', 'junit']);
    expect(run.code).toBe(1);
    const parsed = (await parse(run.stdout)) as { tests?: number; failures?: number; testsuite?: { name: string; tests: number; failures: number; testcase: { name: string; classname: string; time: number; failure?: { message?: string; inner?: string }[] }[] }[] };
    expect([parsed.tests, parsed.failures]).toEqual([12, 1]);
    expect(parsed.testsuite!.map((s) => [s.name, s.tests, s.failures])).toEqual([[a, 4, 1], [b, 8, 0]]);
    const failed = parsed.testsuite![0]!.testcase.find((c) => c.failure !== undefined)!;
    expect(failed.name).toBe('0x2.trace_block');
    expect(failed.classname).toBe(a);
    expect(failed.time).toBeGreaterThanOrEqual(0);
    expect(failed.failure![0]!.message).toBe('1 difference; first at $.result[0].result.gasUsed');
    expect(failed.failure![0]!.inner).toContain('› trace [] CALL');
    expect(failed.failure![0]!.inner).toContain('    result.gasUsed\n');
    expect(failed.failure![0]!.inner!.endsWith('      at $.result[0].result.gasUsed')).toBe(true);
  }, SLOW);

  test('--reporter github: an ::error annotation on the recording, then the text report', async () => {
    const a = await recorded('github-a');
    const file = join(a, '0x2.trace_block.response.json');
    bumpGas(file);
    const run = await runHarness(['check', PRAGUE, a, '--reporter', 'github']);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split('\n');
    const annotation = lines.find((l) => l.startsWith('::error '))!;
    // outside the checkout the path stays absolute (github.test.ts has the paths made relative to it)
    // on the line of the differing value, the gasUsed bumpGas changed
    const line = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('"gasUsed"')) + 1;
    expect(line).toBeGreaterThan(1);
    expect(annotation.startsWith(`::error file=${file},line=${line},title=check%3A 0x2.trace_block::  1 difference%0A  tx 0 (`)).toBe(true);
    // the runner hides workflow commands from the log: the text report follows them for people
    expect(run.stdout.indexOf(`\nFAIL 0x2.trace_block  (${file})\n  1 difference\n`)).toBeGreaterThan(run.stdout.indexOf('::error '));
    expect(lines.at(-1)).toBe('3 passed, 1 failed');
  }, SLOW);
});

describe('--shard', () => {
  test('1/3, 2/3 and 3/3 together check every case exactly once', async () => {
    const goldens = [join(GOLDEN, 'anvil/prague-devnet'), join(GOLDEN, 'anvil-errors')];
    const all = JSON.parse((await runHarness(['check', PRAGUE, ...goldens, '--json'])).stdout) as { cases: { name: string; file: string }[] };
    const names = all.cases.map((c) => c.file).sort();
    expect(names.length).toBeGreaterThan(10);
    const shards = await Promise.all([1, 2, 3].map((i) => runHarness(['check', PRAGUE, ...goldens, '--reporter', 'json', '--shard', `${i}/3`])));
    const files = shards.map((s) => (JSON.parse(s.stdout) as { cases: { file: string }[] }).cases.map((c) => c.file));
    for (const f of files) expect(Math.abs(f.length - names.length / 3)).toBeLessThanOrEqual(1);
    expect(files.flat().sort()).toEqual(names);
  }, SLOW);

  test('a shard of a matrix wider than the cases passes with nothing to check', async () => {
    const run = await runHarness(['check', PRAGUE, join(GOLDEN, 'anvil/prague-devnet/block-0x1.trace_block.request.json'), '--shard', '2/2']);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, '0 passed, 0 failed\n', '']);
  }, SLOW);
});

describe('bad input: one stderr line, exit 2, nothing read or written', () => {
  test.each([
    [['--ignore', 'a.b'], '--ignore "a.b" is neither a member name'],
    [['--ignore', '$.result[x]'], '--ignore "$.result[x]" is neither a member name'],
    [['--shard', '0/3'], 'check --shard: 0/3 is not I/N'],
    [['--shard', '2'], 'check --shard: 2 is not I/N'],
    [['--abi', '/nonexistent/out'], 'cannot read --abi /nonexistent/out'],
    [['--reporter', 'tap'], 'check --reporter: tap is not one of text, json, junit, github'],
  ])('%j', async (args, message) => {
    const run = await runHarness(['check', PRAGUE, join(GOLDEN, 'anvil/prague-devnet'), ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(message);
  }, SLOW);
});

test('check --cache DIR keeps its snapshot there; --no-cache writes none', async () => {
  const cache = join(work, 'cache');
  const golden = join(GOLDEN, 'anvil/prague-devnet/block-0x1.trace_block.request.json');
  const first = await runHarness(['check', PRAGUE, golden, '--cache', cache]);
  expect([first.code, first.stdout]).toEqual([0, '1 passed, 0 failed\n']);
  expect(readdirSync(cache).some((f) => f.endsWith('.snap'))).toBe(true);
  const none = join(work, 'no-cache-home');
  const run = Bun.spawn([join(ROOT, 'node_modules/.bin/bun'), join(ROOT, 'src/cli.ts'), 'check', PRAGUE, golden, '--no-cache'], { cwd: ROOT, env: { ...process.env, XDG_CACHE_HOME: none }, stdout: 'pipe' });
  expect(await new Response(run.stdout).text()).toBe('1 passed, 0 failed\n');
  expect(existsSync(join(none, 'blocktrace'))).toBe(false);
}, SLOW);
