// The shipped artefacts (issue 7), built once into a temporary directory by `bun build.ts DIR`:
// the compiled binary on every fixture format, and the esbuild bundle under Deno (server and
// harness) and Node (harness and server), each answering recorded requests byte for byte.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sortedGoJson } from './helpers/goJsonSorted.ts';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transaction } from 'micro-eth-signer';
import { loadChain } from '../src/replay/loadChain.ts';
import { createContext } from '../src/rpc/context.ts';
import { dispatch } from '../src/rpc/dispatch.ts';
import { BODIES, BUN, PRAGUE, ROOT } from './faces.ts';

const GOLDEN = join(ROOT, 'golden');
const EXAPI = join(GOLDEN, 'execution-apis/tests');
const DENO = join(ROOT, 'node_modules/@deno/linux-x64-glibc/deno');
const DENO_RUN = [DENO, 'run', '--allow-env', '--allow-read', '--allow-net'];
const NODE = Bun.which('node') ?? 'node';
const SLOW = 60_000;

interface Exchange {
  readonly request: string;
  readonly response: string;
}

/** `.io` files: `>> request` / `<< response` lines (response trimmed, as rpctestgen stores it). */
function ioExchanges(dir: string): Exchange[] {
  const out: Exchange[] = [];
  for (const sub of readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(dir, sub.name)).filter((f) => f.endsWith('.io')).sort()) {
      let request: string | undefined;
      for (const line of readFileSync(join(dir, sub.name, file), 'utf8').split('\n')) {
        if (line.startsWith('>> ')) request = line.slice(3);
        else if (line.startsWith('<< ') && request !== undefined) out.push({ request, response: line.slice(3).trim() });
      }
    }
  }
  return out;
}

/** `X.request.json` / `X.response.json` pairs of a folder (anvil recordings), `filter` on the name. */
function pairedExchanges(dir: string, filter = ''): Exchange[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.request.json') && f.includes(filter))
    .sort()
    .map((f) => ({
      request: readFileSync(join(dir, f), 'utf8'),
      response: readFileSync(join(dir, f.replace('.request.json', '.response.json')), 'utf8'),
    }));
}

/** A go-ethereum prestateTracer test case as one request and the answer its recording implies. */
function prestateCase(path: string): Exchange {
  const c = JSON.parse(readFileSync(path, 'utf8')) as { context: { number: string }; input: string; tracerConfig?: unknown; result: unknown };
  const options = c.tracerConfig === undefined ? { tracer: 'prestateTracer' } : { tracer: 'prestateTracer', tracerConfig: c.tracerConfig };
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x' + BigInt(c.context.number).toString(16), options] });
  const hash = Transaction.fromHex(c.input.startsWith('0x') ? c.input : `0x${c.input}`, false).hash;
  return { request, response: `{"jsonrpc":"2.0","id":1,"result":[{"txHash":"${hash}","result":${sortedGoJson(c.result)}}]}` };
}

const EXAPI_CASES = ioExchanges(EXAPI);
const ANVIL_CASES = [...pairedExchanges(join(GOLDEN, 'anvil/prague-devnet')), ...pairedExchanges(join(GOLDEN, 'anvil-errors'))];
const TRACETEST_CASES: [string, Exchange][] = ['prestate_tracer/blob_tx.json', 'prestate_tracer_with_diff_mode/create.json'].map((f) => {
  const path = join(GOLDEN, 'geth-tracetest', f);
  return [path, prestateCase(path)];
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function run(cmd: readonly string[], stdin = '', cwd = ROOT): Promise<Run> {
  const proc = Bun.spawn([...cmd], { cwd, stdin: new TextEncoder().encode(stdin), stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Runs a harness face over `cases` on stdin and expects one recorded answer per line. */
async function expectHarness(cmd: readonly string[], fixture: string, cases: readonly Exchange[]): Promise<void> {
  const { code, stdout, stderr } = await run([...cmd, '--replay-file', fixture], cases.map((c) => c.request.trim()).join('\n') + '\n');
  expect(stderr).not.toContain('    at ');
  expect(code).toBe(0);
  expect(stdout.split('\n')).toEqual([...cases.map((c) => c.response), '']);
}

interface Server {
  readonly url: string;
  /** SIGTERM, then the exit status. */
  stop(): Promise<number>;
}

const started = new Set<Bun.Subprocess>();

/** Starts a server face on 127.0.0.1 with a free port and waits for the URL it logs on stderr. */
async function startServer(cmd: readonly string[], args: readonly string[], cwd: string): Promise<Server> {
  const proc = Bun.spawn([...cmd, 'serve', ...args, '--host', '127.0.0.1', '--port', '0'], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  started.add(proc);
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = '';
  for (;;) {
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen)?.[1];
    if (url !== undefined) {
      // keep draining stderr so the server never blocks on a full pipe
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return {
        url,
        stop: async () => {
          proc.kill('SIGTERM');
          const code = await proc.exited;
          started.delete(proc);
          return code;
        },
      };
    }
    const { done, value } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${seen}`);
    seen += decoder.decode(value, { stream: true });
  }
}

async function post(url: string, body: string): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(res.status).toBe(200);
  return res.text();
}

async function expectServer(server: Server, cases: readonly Exchange[]): Promise<void> {
  for (const { request, response } of cases) expect(await post(server.url, request)).toBe(response);
}

let dist: string;
let binary: string;
let bundle: string;
/** BODIES answered in process by dispatch on the prague fixture: every face must send these bytes. */
let bodies: Exchange[];
const elsewhere = mkdtempSync(join(tmpdir(), 'blocktrace-cwd-'));

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'blocktrace-dist-'));
  const build = await run([BUN, 'build.ts', dist]);
  if (build.code !== 0) throw new Error(`bun build.ts failed: ${build.stderr}`);
  binary = join(dist, 'blocktrace');
  bundle = join(dist, 'blocktrace.mjs');
  const ctx = createContext(await loadChain(PRAGUE), { log: () => {} });
  bodies = await Promise.all(BODIES.map(async (request) => ({ request, response: (await dispatch(request, ctx))! })));
}, 120_000);

afterAll(() => {
  for (const proc of started) proc.kill('SIGKILL');
  rmSync(dist, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

test('docs/build.md states the sizes the build makes (within 10 %)', () => {
  const doc = readFileSync(join(ROOT, 'docs/build.md'), 'utf8');
  const stated = (file: string): number => Number(new RegExp(`\`dist/${file.replace('.', '\\.')}\` \\(about (\\d+(?:\\.\\d+)?) MiB`).exec(doc)![1]);
  for (const [file, path] of [['blocktrace.mjs', bundle], ['blocktrace', binary]] as const) {
    const mib = statSync(path).size / 1024 ** 2;
    expect(Math.abs(mib - stated(file)) / mib).toBeLessThan(0.1);
  }
});

describe('compiled binary (dist/blocktrace)', () => {
  test('harness, chain directory: go-ethereum execution-apis recordings', async () => {
    expect(EXAPI_CASES.length).toBeGreaterThan(10);
    await expectHarness([binary], EXAPI, EXAPI_CASES);
  }, SLOW);

  test('harness, blocktrace/anvil JSON: anvil trace_block recordings, trace_block and trace_filter parameter errors', async () => {
    expect(ANVIL_CASES.length).toBe(8 + 23);
    await expectHarness([binary], PRAGUE, ANVIL_CASES);
  }, SLOW);

  test('harness, go-ethereum tracer tests (a blob transaction: KZG inside the binary)', async () => {
    for (const [path, exchange] of TRACETEST_CASES) await expectHarness([binary], path, [exchange]);
  }, SLOW);

  test('serve FIXTURE answers the recordings over HTTP', async () => {
    const server = await startServer([binary], [EXAPI], elsewhere);
    await expectServer(server, EXAPI_CASES);
    expect(await server.stop()).toBe(0);
  }, SLOW);

  test("a directory's .env and bunfig.toml are not the binary's: no preload runs, no variable is set", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-foreign-'));
    try {
      writeFileSync(join(dir, 'preload.ts'), "console.error('PRELOAD RAN');\n");
      writeFileSync(join(dir, 'bunfig.toml'), 'preload = ["./preload.ts"]\n');
      writeFileSync(join(dir, '.env'), `XDG_CACHE_HOME=${join(dir, 'cache')}\n`);
      // no XDG_CACHE_HOME of its own (one set wins over a .env's): the snapshot goes under HOME
      const env: Record<string, string | undefined> = { ...process.env, HOME: join(dir, 'home') };
      delete env['XDG_CACHE_HOME'];
      const proc = Bun.spawn([binary, '--replay-file', PRAGUE, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'], { cwd: dir, env, stdout: 'pipe', stderr: 'pipe' });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(code).toBe(0);
      expect(stdout).toStartWith('{"jsonrpc":"2.0","id":1,"result":"0x');
      expect(stderr).not.toContain('PRELOAD RAN');
      expect(existsSync(join(dir, 'cache'))).toBe(false);
      expect(readdirSync(join(dir, 'home/.cache/blocktrace')).some((f) => f.endsWith('.snap'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);

  test('harness, builtin:cancun-devnet from another directory: the answers of its fixture file', async () => {
    const requests = ['{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0xa",{"tracer":"callTracer"}]}', '{"jsonrpc":"2.0","id":2,"method":"trace_block","params":["0x3"]}'];
    const named = await run([binary, '--replay-file', 'builtin:cancun-devnet', ...requests], '', elsewhere);
    const file = await run([binary, '--replay-file', join(GOLDEN, 'fixtures/cancun-devnet/fixture.json'), ...requests]);
    expect([named.code, named.stdout.split('\n').length]).toEqual([0, 3]);
    expect(named.stdout).toBe(file.stdout);
  }, SLOW);

  test('serve with no argument, from another directory: the built-in fixture', async () => {
    const server = await startServer([binary], [], elsewhere);
    await expectServer(server, [...pairedExchanges(join(GOLDEN, 'anvil/prague-devnet')), ...bodies]);
    expect(await server.stop()).toBe(0);
  }, SLOW);
});

describe('bundle on Deno (dist/blocktrace.mjs)', () => {
  test('serve with no argument, from another directory: recordings and the in-process bytes', async () => {
    const server = await startServer([...DENO_RUN, bundle], [], elsewhere);
    await expectServer(server, [...pairedExchanges(join(GOLDEN, 'anvil/prague-devnet')), ...bodies]);
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(5 * 2 ** 20 + 1) });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('request body too large');
    expect(await server.stop()).toBe(0);
  }, SLOW);

  test('harness, chain directory: go-ethereum execution-apis recordings', async () => {
    await expectHarness(DENO_RUN.concat(bundle), EXAPI, EXAPI_CASES);
  }, SLOW);
});

describe('bundle on Node (dist/blocktrace.mjs)', () => {
  test('harness, blocktrace/anvil JSON: anvil recordings', async () => {
    await expectHarness([NODE, bundle], PRAGUE, ANVIL_CASES);
  }, SLOW);

  test('serve through the node:http adapter: the in-process bytes, 404 and 413', async () => {
    const server = await startServer([NODE, bundle], [PRAGUE], elsewhere);
    await expectServer(server, bodies);
    expect((await fetch(`${server.url}rpc`, { method: 'POST', body: '{}' })).status).toBe(404);
    const res = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ' '.repeat(5 * 2 ** 20 + 1) });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain('request body too large');
    expect(await server.stop()).toBe(0);
  }, SLOW);
});

describe('a busy port is an error on every runtime', () => {
  test('with blocktrace serving a port, a second serve on it exits 2 with one line (source, binary, Deno, Node)', async () => {
    const first = await startServer([BUN, 'src/cli.ts'], [PRAGUE], ROOT);
    const port = new URL(first.url).port;
    try {
      for (const cmd of [[BUN, 'src/cli.ts'], [binary], [...DENO_RUN, bundle], [NODE, bundle]]) {
        const second = await run([...cmd, 'serve', PRAGUE, '--host', '127.0.0.1', '--port', port]);
        expect(second.code).toBe(2);
        expect(second.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`blocktrace: cannot listen on 127.0.0.1:${port}`)]);
        expect(second.stderr).not.toContain('listening on');
      }
      // and the first still answers alone
      expect(await post(first.url, BODIES[4]!)).toContain('"result"');
    } finally {
      expect(await first.stop()).toBe(0);
    }
  }, SLOW);
});

describe('one replay cache for every runtime', () => {
  test('a snapshot written by one runtime is read by the others (no replay, no warning, the same answers)', async () => {
    const cases = EXAPI_CASES;
    const input = cases.map((c) => c.request.trim()).join('\n') + '\n';
    const faces: [string, readonly string[]][] = [
      ['Node', [NODE, bundle]],
      ['binary', [binary]],
      ['Deno', [DENO, 'run', '--allow-env', '--allow-read', '--allow-net', '--allow-write', bundle]],
      ['Bun', [BUN, 'src/cli.ts']],
    ];
    for (const [writer] of faces) {
      const cache = mkdtempSync(join(tmpdir(), 'blocktrace-cache-'));
      try {
        const write = await run([...faces.find(([n]) => n === writer)![1], '--replay-file', EXAPI, '--cache', cache], input);
        expect({ writer, code: write.code, stderr: write.stderr }).toEqual({ writer, code: 0, stderr: '' });
        const snapshots = readdirSync(cache).filter((f) => f.endsWith('.snap'));
        expect({ writer, snapshots: snapshots.length }).toEqual({ writer, snapshots: 1 });
        const written = readFileSync(join(cache, snapshots[0]!));
        const inode = statSync(join(cache, snapshots[0]!)).ino;
        for (const [reader, cmd] of faces.filter(([n]) => n !== writer)) {
          const read = await run([...cmd, '--replay-file', EXAPI, '--cache', cache], input);
          expect({ writer, reader, code: read.code, stderr: read.stderr }).toEqual({ writer, reader, code: 0, stderr: '' });
          expect(read.stdout.split('\n')).toEqual([...cases.map((c) => c.response), '']);
        }
        // read, never rewritten (a write renames a new file into place): the file is the writer's
        expect(statSync(join(cache, snapshots[0]!)).ino).toBe(inode);
        expect(readFileSync(join(cache, snapshots[0]!)).equals(written)).toBe(true);
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    }
  }, 4 * SLOW);
});
