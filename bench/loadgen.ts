// Bounded load from a second process: autocannon (under node) with a fixed number of connections
// for a fixed number of seconds, POSTing one JSON-RPC body to a 127.0.0.1 URL.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { spawnChild } from './procs.ts';

export interface LoadResult {
  readonly connections: number;
  readonly seconds: number;
  /** Mean requests per second over the run. */
  readonly requestsPerSecond: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

function autocannonScript(): string {
  const pkg = createRequire(import.meta.url).resolve('autocannon/package.json');
  return join(dirname(pkg), 'autocannon.js');
}

export async function loadTest(url: string, text: string, opts: { connections: number; seconds: number; cwd: string }): Promise<LoadResult> {
  if (!url.startsWith('http://127.0.0.1:')) throw new Error(`load only on loopback, not ${url}`);
  const child = spawnChild('autocannon', [
    'node', autocannonScript(),
    '--connections', String(opts.connections),
    '--duration', String(opts.seconds),
    '--timeout', '10',
    '--method', 'POST',
    '--headers', 'content-type=application/json',
    '--body', text,
    '--json',
    '--no-progress',
    url,
  ], opts.cwd);
  const killer = setTimeout(() => void child.stop(), (opts.seconds + 30) * 1000);
  const code = await child.exited;
  clearTimeout(killer);
  const out = child.output();
  const line = out.split('\n').find((l) => l.startsWith('{"'));
  if (code !== 0 || line === undefined) throw new Error(`autocannon exited ${code}:\n${out.slice(-2000)}`);
  const json = JSON.parse(line) as AutocannonJson;
  return {
    connections: opts.connections,
    seconds: opts.seconds,
    requestsPerSecond: json.requests.average,
    total: json.requests.total,
    non2xx: json.non2xx,
    errors: json.errors,
    timeouts: json.timeouts,
    latencyP50Ms: json.latency.p50,
    latencyP99Ms: json.latency.p99,
  };
}
