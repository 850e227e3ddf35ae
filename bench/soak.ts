#!/usr/bin/env bun
// Soak: starts `blocktrace serve` on 127.0.0.1 (any free port) as a child process, drives it for a
// bounded time with concurrent fetch loops of mixed valid and invalid requests, and reports requests
// served, answers by JSON-RPC code / HTTP status, wrong answers, p50/p99 latency and the server's RSS
// over time. Every answer is compared with the one the same body got alone at the start.
// Stops the server it started (by its PID) before it exits; exit status 1 on a wrong answer or crash.
//
//   npm run soak -- [--seconds 60] [--clients 8] [--fixture PATH] [--json]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');

interface Options {
  seconds: number;
  clients: number;
  fixture: string;
  json: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { seconds: 60, clients: 8, fixture: join(ROOT, 'golden/fixtures/prague-devnet/fixture.json'), json: false };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      return v;
    };
    if (name === '--seconds') options.seconds = Number(value());
    else if (name === '--clients') options.clients = Number(value());
    else if (name === '--fixture') options.fixture = value();
    else if (name === '--json') options.json = true;
    else throw new Error(`unknown option ${name} (--seconds N, --clients N, --fixture PATH, --json)`);
  }
  if (!(options.seconds > 0) || !(options.clients >= 1)) throw new Error('--seconds and --clients must be positive');
  return options;
}

/** VmRSS of a process in MiB (Linux /proc; `ps` elsewhere). */
function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (kb > 0) return kb / 1024;
  } catch {
    // not Linux
  }
  const ps = Bun.spawnSync(['ps', '-o', 'rss=', '-p', String(pid)]);
  return Number(new TextDecoder().decode(ps.stdout).trim()) / 1024;
}

async function startServer(fixture: string): Promise<{ proc: Bun.Subprocess<'ignore', 'ignore', 'pipe'>; url: string }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, 'src/cli.ts'), 'serve', fixture, '--host', '127.0.0.1', '--port', '0'], {
    cwd: ROOT,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const reader = proc.stderr.getReader();
  let seen = '';
  for (;;) {
    const match = /listening on (http:\/\/\S+)/.exec(seen);
    if (match) {
      // keep draining stderr so the server never blocks on a full pipe
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return { proc, url: match[1]! };
    }
    const { value, done } = await reader.read();
    if (done) throw new Error(`server exited before listening: ${seen.trim()}`);
    seen += new TextDecoder().decode(value);
  }
}

/** The request mix, about three valid bodies to one invalid. */
function requestMix(head: number, txs: readonly string[]): string[] {
  const r = (method: string, params: unknown, id: unknown = 1): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const valid: string[] = [];
  for (let n = 1; n <= head; n++) {
    const b = `0x${n.toString(16)}`;
    valid.push(
      r('debug_traceBlockByNumber', [b, { tracer: 'callTracer', tracerConfig: { withLog: true } }]),
      r('debug_traceBlockByNumber', [b, { tracer: 'prestateTracer' }]),
      r('debug_traceBlockByNumber', [b, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
      r('trace_block', [b]),
      r('eth_getBlockByNumber', [b, true]),
    );
  }
  for (const tx of txs.slice(0, 20)) valid.push(r('debug_traceTransaction', [tx, { tracer: 'callTracer' }]), r('trace_transaction', [tx]), r('eth_getTransactionReceipt', [tx]));
  valid.push(r('eth_blockNumber', []), r('eth_chainId', []), r('web3_clientVersion', []), `[${r('eth_blockNumber', [], 1)},${r('trace_block', ['0x1'], 2)}]`);
  const invalid = [
    '{"jsonrpc":"2.0","id":1,',
    'not json at all',
    '[]',
    r('no_such_method', []),
    r('debug_traceBlockByNumber', ['0x1']),
    r('debug_traceBlockByNumber', ['3', { tracer: 'callTracer' }]),
    r('debug_traceBlockByNumber', ['0x3f4', { tracer: 'callTracer' }]),
    r('debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer', timeout: 'soon' }]),
    r('debug_traceBlockByNumber', ['0x1', { tracer: 'flatCallTracer' }]),
    r('trace_block', [{}]),
    '{"jsonrpc":"2.0","method":"eth_chainId"}',
    `[${Array.from({ length: 101 }, (_, i) => r('eth_chainId', [], i)).join(',')}]`,
    '['.repeat(20_000) + ']'.repeat(20_000),
    r('x'.repeat(3000), []),
  ];
  return [...valid, ...invalid];
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const { proc, url } = await startServer(options.fixture);
  const stopServer = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await proc.exited;
  };
  process.once('SIGINT', () => void stopServer().then(() => process.exit(130)));
  try {
    const call = async (body: string): Promise<{ status: number; text: string }> => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: res.status, text: await res.text() };
    };
    const head = Number(BigInt(JSON.parse((await call('{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}')).text).result));
    const txs: string[] = [];
    for (let n = 1; n <= head; n++) {
      const block = JSON.parse((await call(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: [`0x${n.toString(16)}`, false] }))).text);
      txs.push(...(block.result.transactions as string[]));
    }
    const mix = requestMix(head, txs);
    // answers alone, first: they also warm the server's recording cache
    const expected = new Map<string, string>();
    for (const body of mix) expected.set(body, (await call(body)).text);
    const rssStart = rssMiB(proc.pid);
    const samples: number[] = [rssStart];

    const latencies: number[] = [];
    const byCode = new Map<string, number>();
    const wrong: string[] = [];
    let served = 0;
    const deadline = performance.now() + options.seconds * 1000;
    const sampler = setInterval(() => samples.push(rssMiB(proc.pid)), Math.max(1000, (options.seconds * 1000) / 12));
    let seed = 1;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    await Promise.all(
      Array.from({ length: options.clients }, async () => {
        while (performance.now() < deadline) {
          const body = mix[next() % mix.length]!;
          const start = performance.now();
          let status: number;
          let text: string;
          try {
            ({ status, text } = await call(body));
          } catch (err) {
            byCode.set('transport error', (byCode.get('transport error') ?? 0) + 1);
            if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`server died: ${String(err)}`);
            continue;
          }
          latencies.push(performance.now() - start);
          served++;
          const codes = text === '' ? ['no answer'] : [...text.matchAll(/"error":\{"code":(-?\d+)/g)].map((m) => m[1]!);
          const key = status !== 200 ? `HTTP ${status}` : codes.length === 0 ? 'result' : [...new Set(codes)].join('+');
          byCode.set(key, (byCode.get(key) ?? 0) + 1);
          if (text !== expected.get(body)) wrong.push(body.slice(0, 120));
        }
      }),
    );
    clearInterval(sampler);
    const rssEnd = rssMiB(proc.pid);
    samples.push(rssEnd);
    latencies.sort((a, b) => a - b);
    const report = {
      seconds: options.seconds,
      clients: options.clients,
      fixture: options.fixture.replace(`${ROOT}/`, ''),
      served,
      perSecond: Math.round(served / options.seconds),
      answers: Object.fromEntries([...byCode].sort((a, b) => b[1] - a[1])),
      wrongAnswers: wrong.length,
      latencyMs: { p50: +percentile(latencies, 50).toFixed(2), p99: +percentile(latencies, 99).toFixed(2), max: +(latencies.at(-1) ?? 0).toFixed(2) },
      rssMiB: { start: Math.round(rssStart), end: Math.round(rssEnd), max: Math.round(Math.max(...samples)), samples: samples.map(Math.round) },
      serverAlive: proc.exitCode === null && proc.signalCode === null,
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
    } else {
      const lines = [
        `soak: ${report.seconds} s, ${report.clients} concurrent clients, ${report.fixture}`,
        `requests served   ${report.served} (${report.perSecond}/s), wrong answers ${report.wrongAnswers}, server alive ${report.serverAlive}`,
        `answers           ${Object.entries(report.answers).map(([k, v]) => `${k}: ${v}`).join(', ')}`,
        `latency           p50 ${report.latencyMs.p50} ms, p99 ${report.latencyMs.p99} ms, max ${report.latencyMs.max} ms`,
        `server RSS (MiB)  start ${report.rssMiB.start}, end ${report.rssMiB.end}, max ${report.rssMiB.max}; samples ${report.rssMiB.samples.join(' ')}`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      for (const w of wrong.slice(0, 5)) process.stderr.write(`wrong answer for: ${w}\n`);
    }
    return wrong.length === 0 && report.serverAlive ? 0 : 1;
  } finally {
    await stopServer();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
