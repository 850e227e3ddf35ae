// `builtin:prague-devnet` and `builtin:cancun-devnet` (issue 47): the example chains that ship inside
// blocktrace, named wherever a FIXTURE goes, from a directory that has no golden/ at all. Each face
// answers what it answers for the fixture file itself. (The npm package on Node: test/install.test.ts;
// the executable: test/dist.test.ts.)
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUN, CLI, ROOT } from './faces.ts';

const SLOW = 120_000;
const empty = mkdtempSync(join(tmpdir(), 'blocktrace-builtin-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const CANCUN = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const TX = '0x15868199cc245e2c6face2dd95df4258449b278bc3dcc2dbd708993e3a25f58a';
const REQUESTS = [
  '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0xa",{"tracer":"callTracer"}]}',
  '{"jsonrpc":"2.0","id":2,"method":"trace_block","params":["0x3"]}',
];

async function cli(args: readonly string[], cwd = empty): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, CLI, ...args], { cwd, env: process.env, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe('builtin: names, from an empty directory', () => {
  test('the harness: builtin:cancun-devnet answers the bytes of golden/fixtures/cancun-devnet/fixture.json', async () => {
    const named = await cli(['--replay-file', 'builtin:cancun-devnet', ...REQUESTS]);
    const file = await cli(['--replay-file', CANCUN, ...REQUESTS], ROOT);
    expect(named.code).toBe(0);
    expect(named.stdout.split('\n')).toHaveLength(3);
    expect(named.stdout).toBe(file.stdout);
  }, SLOW);

  test('check builtin:prague-devnet against the anvil recordings of that chain', async () => {
    const run = await cli(['check', 'builtin:prague-devnet', join(ROOT, 'golden/anvil/prague-devnet')]);
    expect([run.code, run.stdout.trim().split('\n').at(-1)]).toEqual([0, '8 passed, 0 failed']);
  }, SLOW);

  test('record builtin:cancun-devnet, then check the goldens it wrote: they pass', async () => {
    const requests = join(empty, 'requests.txt');
    writeFileSync(requests, `${REQUESTS.join('\n')}\n`);
    const out = join(empty, 'goldens');
    const recorded = await cli(['record', 'builtin:cancun-devnet', requests, '--out', out]);
    expect(recorded.code).toBe(0);
    expect(readdirSync(out).filter((f) => f.endsWith('.response.json'))).toHaveLength(2);
    const checked = await cli(['check', 'builtin:cancun-devnet', out]);
    expect([checked.code, checked.stdout.trim()]).toEqual([0, '2 passed, 0 failed']);
  }, SLOW);

  test('show a transaction of builtin:cancun-devnet, decoded with the ABIs of its out/ (copied beside)', async () => {
    cpSync(join(ROOT, 'golden/fixtures/cancun-devnet/out'), join(empty, 'out'), { recursive: true });
    const named = await cli(['show', 'builtin:cancun-devnet', TX, '--abi', 'out']);
    const file = await cli(['show', CANCUN, TX, '--abi', join(ROOT, 'golden/fixtures/cancun-devnet/out')], ROOT);
    expect(named.code).toBe(0);
    expect(named.stdout).toBe(file.stdout);
  }, SLOW);

  test('diff builtin:prague-devnet builtin:prague-devnet: the same chain, nothing differs', async () => {
    const run = await cli(['diff', 'builtin:prague-devnet', 'builtin:prague-devnet', '0x3']);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('blocktrace:');
  }, SLOW);

  test('serve with no FIXTURE says builtin:prague-devnet; serve builtin:cancun-devnet answers its chain', async () => {
    for (const [args, summary, head] of [[[], 'chain builtin:prague-devnet', '0x7'], [['builtin:cancun-devnet'], 'chain builtin:cancun-devnet', '0xc']] as const) {
      const proc = Bun.spawn([BUN, CLI, 'serve', ...args, '--host', '127.0.0.1', '--port', '0', '--no-cache'], { cwd: empty, env: process.env, stdout: 'ignore', stderr: 'pipe' });
      try {
        const reader = proc.stderr.getReader();
        let seen = '';
        while (!seen.includes(summary)) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += new TextDecoder().decode(value);
        }
        expect(seen).toContain(`${summary} (anvil-corpus): chainId`);
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen)![1]!;
        const answer = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}' })).text();
        expect(answer).toBe(`{"jsonrpc":"2.0","id":1,"result":"${head}"}`);
      } finally {
        proc.kill('SIGTERM');
        await proc.exited;
      }
    }
  }, SLOW);

  test('the replay cache keeps a built-in chain by its name: a second start reads its snapshot; cache ls names it, cache clear NAME removes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-builtin-cache-'));
    try {
      const first = await cli(['--replay-file', 'builtin:cancun-devnet', '--cache', dir, REQUESTS[0]!]);
      const second = await cli(['--replay-file', 'builtin:cancun-devnet', '--cache', dir, REQUESTS[0]!]);
      expect(second.stdout).toBe(first.stdout);
      await cli(['--replay-file', 'builtin:prague-devnet', '--cache', dir, REQUESTS[0]!]);
      const ls = await cli(['cache', 'ls', '--cache', dir]);
      const fixtures = ls.stdout.trim().split('\n').slice(0, -1).map((line) => line.split(/ {2,}/).at(-1));
      expect(fixtures.sort()).toEqual(['built-in prague-devnet fixture', 'builtin:cancun-devnet']);
      const cleared = await cli(['cache', 'clear', 'builtin:cancun-devnet', '--cache', dir]);
      expect(cleared.stdout.trim().split('\n').at(-1)).toStartWith('removed 1 snapshot, ');
      const prague = await cli(['cache', 'clear', 'builtin:prague-devnet', '--cache', dir]);
      expect(prague.stdout.trim().split('\n').at(-1)).toStartWith('removed 1 snapshot, ');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);

  test('an unknown name: one line naming the built-in chains, exit 2, for every command', async () => {
    for (const args of [['--replay-file', 'builtin:mainnet', '{}'], ['serve', 'builtin:mainnet', '--port', '0'], ['check', 'builtin:mainnet', join(ROOT, 'golden/anvil/prague-devnet')]]) {
      const run = await cli(args);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('blocktrace: builtin:mainnet: no such built-in chain (there are builtin:prague-devnet and builtin:cancun-devnet)\n');
    }
    expect(existsSync(join(empty, 'builtin:mainnet'))).toBe(false);
  }, SLOW);
});
