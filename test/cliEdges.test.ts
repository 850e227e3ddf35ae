// What a newcomer trips over at the command line, through the real process: a closed pipe ends it
// quietly, --version and --help start as fast as the runtime (they load no command).
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const ROOT = join(import.meta.dir, '..');
const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');

/** A cache of the test's own: a snapshot another version left in the shared one is warned about on stderr. */
const ownCache = (): string => mkdtempSync(join(tmpdir(), 'bt-edges-'));

test('show … | head -1: exit 0, nothing on stderr', async () => {
  const bun = process.execPath;
  const proc = Bun.spawn(['bash', '-c', `set -o pipefail; "${bun}" src/cli.ts show "${CANCUN}" 0x4 --cache "${ownCache()}" | head -1`], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(stdout).toStartWith('block 4 0x');
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 60_000);

test('the harness on a closed pipe: exit 0, nothing on stderr', async () => {
  const requests = Array.from({ length: 200 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"eth_getBlockByNumber","params":["0x4",true]}`).join('\\n');
  const proc = Bun.spawn(['bash', '-c', `set -o pipefail; printf '${requests}\\n' | "${process.execPath}" src/cli.ts --replay-file "${CANCUN}" --cache "${ownCache()}" | head -c 10`], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
}, 60_000);

test('--version and --help load no command module: the entry imports only the parser, the method list and the version', async () => {
  const entry = await Bun.file(join(ROOT, 'src/cli.ts')).text();
  const imports = [...entry.matchAll(/^import .* from '(.+)';$/gm)].map((m) => m[1]);
  expect(imports).toEqual(['./cli/args.ts', './cli/methodList.ts', './version.ts']);
  const proc = Bun.spawn([process.execPath, 'src/cli.ts', '--version'], { cwd: ROOT, stdout: 'pipe' });
  expect(await new Response(proc.stdout).text()).toMatch(/^blocktrace \d+\.\d+\.\d+\n$/);
});

test('on a terminal the load says whether it replays or reads the snapshot, and how long it took', async () => {
  const cache = (await import('node:fs')).mkdtempSync(join((await import('node:os')).tmpdir(), 'blocktrace-progress-'));
  const request = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
  // `script` gives the process a terminal (util-linux, as on every Debian machine)
  const run = async (): Promise<string> => {
    const proc = Bun.spawn(['script', '-qec', `"${process.execPath}" src/cli.ts --replay-file "${CANCUN}" --cache "${cache}" '${request}'`, '/dev/null'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    return out.replace(/\r/g, '\n');
  };
  expect(await run()).toMatch(/^replayed 12 blocks, 310 txs in \d+\.\d\d s \(\d+ tx\/s\)$/m);
  expect(await run()).toMatch(/^read the replay snapshot of 12 blocks, 310 txs in \d+\.\d\d s$/m);
}, 60_000);

test('cache ls, cache clear and --cache-max through the real process', async () => {
  const { mkdtempSync, readdirSync } = await import('node:fs');
  const cache = mkdtempSync(join((await import('node:os')).tmpdir(), 'blocktrace-cachecmd-'));
  const bt = (args: string[]) => Bun.spawn([process.execPath, 'src/cli.ts', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const request = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
  for (const fixture of ['golden/fixtures/prague-devnet/fixture.json', CANCUN]) {
    // a cap of one byte: every write leaves only the snapshot just written
    expect(await bt(['--replay-file', fixture, '--cache', cache, '--cache-max', '1', request]).exited).toBe(0);
  }
  await Bun.sleep(100);
  expect(readdirSync(cache).filter((n) => n.endsWith('.snap')).length).toBe(1);
  const ls = bt(['cache', 'ls', '--cache', cache]);
  const listed = await new Response(ls.stdout).text();
  expect(await ls.exited).toBe(0);
  expect(listed).toMatch(/^1 snapshot of 1 fixture, \d+\.\d MiB, in .* \(most recently used first\)$/m);
  expect(listed).toContain(`  ${CANCUN}\n`);
  const clear = bt(['cache', 'clear', '--cache', cache]);
  expect((await new Response(clear.stdout).text()).split('\n').at(-2)).toMatch(/^removed 1 snapshot, /);
  expect(readdirSync(cache).filter((n) => n.endsWith('.snap'))).toEqual([]);

  // each snapshot names its fixture; clear FIXTURE removes that fixture's alone
  const prague = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
  for (const fixture of [prague, CANCUN]) expect(await bt(['--replay-file', fixture, '--cache', cache, request]).exited).toBe(0);
  await Bun.sleep(100);
  const both = await new Response(bt(['cache', 'ls', '--cache', cache]).stdout).text();
  expect(both).toContain(`  ${prague}\n`);
  expect(both).toContain(`  ${CANCUN}\n`);
  const one = await new Response(bt(['cache', 'clear', 'golden/fixtures/prague-devnet/fixture.json', '--cache', cache]).stdout).text();
  expect(one).toMatch(new RegExp(`^removed ${prague.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  \\d+\\.\\d MiB  [0-9a-f]+\\.snap\n`));
  expect(one.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^removed 1 snapshot, .* \\(those of ${prague.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`));
  const left = await new Response(bt(['cache', 'ls', '--cache', cache]).stdout).text();
  expect(left).not.toContain(prague);
  expect(left).toContain(`  ${CANCUN}\n`);
}, 60_000);

// issue 47: --report wrote its page without a word
test('check --report and diff --report say on stderr where they wrote (the absolute path); stdout is unchanged', async () => {
  const { existsSync, mkdtempSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-report-where-'));
  const prague = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
  const bt = async (args: string[]) => {
    // run from the report's directory: a relative --report is said as the absolute path it is
    const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), ...args], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { stdout, stderr, code };
  };
  const check = await bt(['check', prague, join(ROOT, 'golden/anvil/prague-devnet'), '--report', 'check.html', '--no-cache']);
  expect(check).toEqual({ code: 0, stdout: '8 passed, 0 failed\n', stderr: `blocktrace: wrote the HTML report to ${join(dir, 'check.html')}\n` });
  const diff = await bt(['diff', prague, prague, '1', '--report', 'diff.html', '--json', '--no-cache']);
  expect([diff.code, diff.stderr]).toEqual([0, `blocktrace: wrote the HTML report to ${join(dir, 'diff.html')}\n`]);
  expect(JSON.parse(diff.stdout)).toMatchObject({ a: prague, b: prague });
  expect([existsSync(join(dir, 'check.html')), existsSync(join(dir, 'diff.html'))]).toEqual([true, true]);
}, 60_000);

// issue 47: a cache of many snapshots listed one line per file, ungrouped (376 lines)
test('cache ls: one line per fixture with its snapshots, size and last use; --all: every file', async () => {
  const { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } = await import('node:fs');
  const cache = mkdtempSync(join((await import('node:os')).tmpdir(), 'blocktrace-cachels-'));
  const bt = async (args: string[]) => {
    const proc = Bun.spawn([process.execPath, 'src/cli.ts', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return { stdout, code };
  };
  const prague = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
  const request = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}';
  for (const fixture of [prague, CANCUN]) expect((await bt(['--replay-file', fixture, '--cache', cache, request])).code).toBe(0);
  await Bun.sleep(100);
  // each snapshot's header names its fixture
  const snap = (fixture: string): string => readdirSync(cache).find((n) => n.endsWith('.snap') && readFileSync(join(cache, n)).subarray(0, 4096).toString().includes(JSON.stringify(fixture)))!;
  const [pragueSnap, cancunSnap] = [snap(prague), snap(CANCUN)];
  // a second snapshot of prague-devnet (as an earlier version of blocktrace, or of the fixture, leaves one), and one of a version that named no fixture
  const olderPrague = `${'e'.repeat(64)}.snap`;
  copyFileSync(join(cache, pragueSnap), join(cache, olderPrague));
  writeFileSync(join(cache, `${'a'.repeat(64)}.snap`), `BTSNAP09${'\0'.repeat(1000)}`);
  const now = Date.now();
  const at = (name: string, secondsAgo: number) => utimesSync(join(cache, name), new Date(now - secondsAgo * 1000), new Date(now - secondsAgo * 1000));
  at(pragueSnap, 90);
  at(olderPrague, 3 * 86_400);
  at(cancunSnap, 310);
  at(`${'a'.repeat(64)}.snap`, 40 * 86_400);
  const size = (...names: string[]) => names.reduce((n, name) => n + statSync(join(cache, name)).size, 0);
  const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  const ls = await bt(['cache', 'ls', '--cache', cache]);
  expect(ls.code).toBe(0);
  expect(ls.stdout).toBe(
    [
      `${mib(size(pragueSnap, olderPrague)).padStart(10)}  2 snapshots  used 1 min ago    ${prague}`,
      `${mib(size(cancunSnap)).padStart(10)}  1 snapshot   used 5 min ago    ${CANCUN}`,
      `${mib(size(`${'a'.repeat(64)}.snap`)).padStart(10)}  1 snapshot   used 40 days ago  (fixture not named: an older version)`,
      `4 snapshots of 3 fixtures, ${mib(size(pragueSnap, olderPrague, cancunSnap, `${'a'.repeat(64)}.snap`))}, in ${cache} (most recently used first; cache ls --all lists each file)`,
      '',
    ].join('\n'),
  );
  const all = await bt(['cache', 'ls', '--all', '--cache', cache]);
  const line = (name: string, fixture: string, secondsAgo: number) => `${new Date(now - secondsAgo * 1000).toISOString()}  ${mib(size(name)).padStart(10)}  ${fixture}  ${name}`;
  expect([all.code, all.stdout]).toEqual([
    0,
    [
      line(pragueSnap, prague, 90),
      line(cancunSnap, CANCUN, 310),
      line(olderPrague, prague, 3 * 86_400),
      line(`${'a'.repeat(64)}.snap`, '(fixture not named: an older version)', 40 * 86_400),
      `4 snapshots of 3 fixtures, ${mib(size(pragueSnap, olderPrague, cancunSnap, `${'a'.repeat(64)}.snap`))}, in ${cache} (most recently used first)`,
      '',
    ].join('\n'),
  ]);
}, 60_000);

test.each([
  [['serv', 'x.json'], 'blocktrace: unknown command serv (did you mean serve?) (see blocktrace --help)'],
  [['recrod', 'f', 'r'], 'blocktrace: unknown command recrod (did you mean record?) (see blocktrace --help)'],
  [['serve', '--prot', '1'], 'blocktrace: serve: unknown option --prot (did you mean --port?) (see blocktrace --help)'],
  [['check', 'f', 'g', '--ignor', 'x'], 'blocktrace: check: unknown option --ignor (did you mean --ignore?) (see blocktrace --help)'],
  [['capture', '--rcp', 'http://127.0.0.1:1'], 'blocktrace: capture: unknown option --rcp (did you mean --rpc?) (see blocktrace --help)'],
  [['serve', '--host', '999.1.1.1'], 'blocktrace: --host: 999.1.1.1 is not an IP address (e.g. 127.0.0.1, 0.0.0.0, ::1, localhost) (see blocktrace --help)'],
])('a newcomer\'s slip %j: one line that says what was meant, exit 2', async (args, line) => {
  const proc = Bun.spawn([process.execPath, 'src/cli.ts', ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect([code, stdout, stderr]).toEqual([2, '', `${line}\n`]);
});

test('serve on a host that is not this machine, or does not resolve: named as the host, not as a port in use', async () => {
  for (const [host, says] of [['10.255.255.1', '10.255.255.1 is not an address of this machine'], ['no-such-host.invalid', 'no-such-host.invalid does not resolve to an address (ENOTFOUND)']]) {
    const proc = Bun.spawn([process.execPath, 'src/cli.ts', 'serve', CANCUN, '--host', host!, '--port', '18551', '--no-cache'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(2);
    expect(stderr).toContain(`blocktrace: cannot listen on ${host}:18551: ${says}\n`);
    expect(stderr).not.toContain('in use');
  }
}, 60_000);

test('a refused tracer or method that --all-tracers allows: the JSON-RPC refusal as the spec has it, the flag named once on stderr', async () => {
  const four = '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"4byteTracer"}]}';
  const none = '{"jsonrpc":"2.0","id":2,"method":"debug_traceBlockByNumber","params":["0x1",{}]}';
  const unknown = '{"jsonrpc":"2.0","id":3,"method":"debug_traceBlockByNumber","params":["0x1",{"tracer":"nope"}]}';
  const proc = Bun.spawn([process.execPath, 'src/cli.ts', '--replay-file', CANCUN, '--no-cache', four, four, none, unknown], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(stdout.split('\n').slice(0, 3)).toEqual([
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"4byteTracer\\" is not supported (supported: callTracer, prestateTracer)"}}',
    '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"tracer \\"4byteTracer\\" is not supported (supported: callTracer, prestateTracer)"}}',
    '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"tracer is required (supported: callTracer, prestateTracer)"}}',
  ]);
  expect(stderr.split('\n').filter((l) => l.includes('--all-tracers'))).toEqual([
    'blocktrace: refused tracer "4byteTracer": go-ethereum has it; start blocktrace with --all-tracers to answer it',
    'blocktrace: refused the struct logger (a trace request that names no tracer): go-ethereum has it; start blocktrace with --all-tracers to answer it',
  ]);
}, 60_000);
