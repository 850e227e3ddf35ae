// Replicas behind a load balancer (issue 50, item 5): HAProxy with deploy/haproxy.cfg (its ports
// moved to free ones) in front of three `blocktrace serve` replicas started at once on one fixture
// and one replay cache, under load from several clients that check every answer against the bytes
// a fresh replay gives; meanwhile one replica gets SIGTERM and is started again, then another is
// killed with SIGKILL and started again (each restarted once HAProxy has marked it down, as an
// orchestrator starts a new replica). Counted: requests, wrong answers, failures (a network error or
// an HTTP status other than 200) and when they happened, latency. test/replicas.test.ts asserts what
// it must (no wrong answer, no failure for the SIGTERM, the kill's only among the requests in flight
// at it); `npm run bench` reports the figures. Loopback only; every process stopped by its PID.
//
//   bun bench/replicas.ts [--clients N] [--seconds S] [--json]
//
// Alone it prints its rows as a Markdown table; with --json (bench/run.ts) one JSON line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Child, freePort, guardChildren, spawnChild } from './procs.ts';
import { scriptOptions } from './scriptArgs.ts';
import { markdown, row, type Row } from './table.ts';

const ROOT = resolve(import.meta.dir, '..');
const PRAGUE = join(ROOT, 'golden/fixtures/prague-devnet/fixture.json');
const BUN = join(ROOT, 'node_modules/.bin/bun');
const CLI = join(ROOT, 'src/cli.ts');
export const HAPROXY_CONFIG = join(ROOT, 'deploy/haproxy.cfg');
const LISTENING = /listening on http:\/\/127\.0\.0\.1:\d+\//;

const r = (id: number, method: string, params: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
/** The mix: traces of every block in three forms, reads, a batch; some cheap, some some milliseconds. */
const MIX: readonly string[] = [
  ...[1, 2, 3, 4, 5, 6, 7].flatMap((n) => [
    r(n, 'trace_block', [`0x${n.toString(16)}`]),
    r(n, 'debug_traceBlockByNumber', [`0x${n.toString(16)}`, { tracer: 'callTracer' }]),
    r(n, 'debug_traceBlockByNumber', [`0x${n.toString(16)}`, { tracer: 'prestateTracer', tracerConfig: { diffMode: true } }]),
  ]),
  r(8, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x7' }]),
  r(9, 'eth_getBalance', ['0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '0x3']),
  r(10, 'eth_getBlockByNumber', ['0x5', true]),
  `[${r(11, 'eth_chainId', [])},${r(12, 'trace_block', ['0x2'])}]`,
];

/** A request of some hundreds of ms (the struct logger of a block, memory on: 11 MB), sent straight to the replica about to get SIGTERM. */
const PROBE = r(13, 'debug_traceBlockByNumber', ['0x3', { enableMemory: true }]);

export interface ReplicasOptions {
  readonly clients: number;
  /** Load before, between and after the two faults. */
  readonly phaseMs: number;
  /** How the replicas run: the source by default. */
  readonly command?: readonly string[];
  readonly log?: (line: string) => void;
}

export interface ReplicasReport {
  readonly requests: number;
  readonly wrong: number;
  readonly failures: number;
  /** Failures from the SIGTERM to the restarted replica marked up. */
  readonly failuresOfSigterm: number;
  /** Failed requests that HAProxy's log does not show sent to the SIGKILLed replica. */
  readonly failuresNotOfKilled: number;
  /** Failed requests that HAProxy sent to the SIGKILLed replica. */
  readonly failuresOfKill: number;
  /** Of those, the ones sent after the SIGKILL (on a connection HAProxy had to it, before it learned of the death). */
  readonly failedAfterKill: number;
  /** Requests in flight (anywhere) at the SIGKILL: a bound on what the killed replica held. */
  readonly inFlightAtKill: number;
  /** Requests in flight (anywhere) at the SIGTERM. */
  readonly inFlightAtTerm: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Whether the long request in flight on the SIGTERMed replica got its whole answer. */
  readonly probeAnswered: boolean;
  /** The SIGTERMed replica's exit status (0). */
  readonly sigtermExit: number;
  /** What went wrong, for a failing test's message. */
  readonly samples: readonly string[];
}

interface Done {
  readonly id: number;
  readonly start: number;
  readonly end: number;
  readonly ok: boolean;
  readonly wrong: boolean;
  readonly what: string;
}

/** The replica HAProxy sent each request to, by the X-Request-Id its log line captured ({N}). */
function serversById(haproxyLog: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const match of haproxyLog.matchAll(/ blocktrace\/(\S+) .*\{(\d+)\}/g)) out.set(Number(match[2]), match[1]!);
  return out;
}

/** The config of deploy/haproxy.cfg with its ports moved. */
export function haproxyConfig(front: number, stats: number, replicas: readonly number[]): string {
  let text = readFileSync(HAPROXY_CONFIG, 'utf8').replace('bind 127.0.0.1:8545', `bind 127.0.0.1:${front}`).replace('bind 127.0.0.1:8404', `bind 127.0.0.1:${stats}`);
  replicas.forEach((port, i) => (text = text.replace(`127.0.0.1:${8546 + i}`, `127.0.0.1:${port}`)));
  return text;
}

/** Each server's state in HAProxy's stats (UP, DOWN, …) by name. */
async function states(statsUrl: string): Promise<Record<string, string>> {
  const csv = await (await fetch(statsUrl)).text();
  const out: Record<string, string> = {};
  for (const line of csv.split('\n')) {
    const cells = line.split(',');
    // status (17), and the last check's result (36): a server is UP before its first check
    if (cells[0] === 'blocktrace' && /^r\d$/.test(cells[1] ?? '')) out[cells[1]!] = `${(cells[17] ?? '').split(' ')[0]!} ${cells[36] ?? ''}`;
  }
  return out;
}

async function until(what: string, ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ok().catch(() => false))) {
    if (performance.now() > deadline) throw new Error(`replicas: timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

export async function replicasRun(options: ReplicasOptions): Promise<ReplicasReport> {
  const log = options.log ?? (() => {});
  const command = options.command ?? [BUN, CLI];
  const work = mkdtempSync(join(tmpdir(), 'blocktrace-replicas-'));
  const cache = join(work, 'cache');
  mkdirSync(cache);
  const children = new Set<Child>();
  const stops: (() => Promise<void>)[] = [];
  try {
    const ports = [await freePort(), await freePort(), await freePort()];
    const front = await freePort();
    const statsPort = await freePort();
    const config = join(work, 'haproxy.cfg');
    writeFileSync(config, haproxyConfig(front, statsPort, ports));
    const statsUrl = `http://127.0.0.1:${statsPort}/stats;csv`;
    const url = `http://127.0.0.1:${front}/`;

    // what each request must get: the harness's bytes, from a fresh replay
    const reference = Bun.spawnSync([BUN, CLI, '--replay-file', PRAGUE, '--no-cache', '--all-tracers', '--', ...MIX, PROBE], { cwd: ROOT, env: process.env, timeout: 120_000 });
    const expected = reference.stdout.toString().split('\n').slice(0, -1);
    const probeAnswer = expected.pop();
    if (reference.exitCode !== 0 || expected.length !== MIX.length) throw new Error(`replicas: the reference run failed: ${reference.stderr.toString()}`);

    const replica = async (i: number): Promise<Child> => {
      const child = spawnChild(`replica r${i + 1}`, [...command, 'serve', PRAGUE, '--port', String(ports[i]), '--cache', cache, '--no-ui', '--all-tracers', '--shutdown-timeout', '30s'], ROOT);
      children.add(child);
      await child.waitFor(LISTENING, 60_000);
      return child;
    };
    const up = (name: string, state: 'UP' | 'DOWN') =>
      until(`${name} ${state} in HAProxy`, async () => {
        const now = (await states(statsUrl))[name] ?? '';
        return state === 'UP' ? now === 'UP L7OK' : now.startsWith('DOWN');
      });
    // three replicas started at once on one empty cache, then the balancer
    const replicas = await Promise.all([0, 1, 2].map(replica));
    await Promise.all(replicas.map((child) => child.waitFor(/^chain /m, 60_000)));
    // its log (a line per request) to a file: all of it is read at the end
    const haproxyLog = join(work, 'haproxy.log');
    const haproxy = Bun.spawn(['haproxy', '-db', '-f', config], { cwd: work, stdin: 'ignore', stdout: Bun.file(haproxyLog), stderr: 'ignore' });
    stops.push(async () => {
      if (haproxy.exitCode === null) process.kill(haproxy.pid, 'SIGTERM');
      await haproxy.exited;
    });
    for (const name of ['r1', 'r2', 'r3']) await up(name, 'UP');
    log(`3 replicas up behind HAProxy on ${url}`);

    const done: Done[] = [];
    let running = true;
    let ids = 0;
    const client = async (c: number): Promise<void> => {
      for (let n = c; running; n++) {
        const i = n % MIX.length;
        const id = ++ids;
        const start = performance.now();
        let ok = false;
        let wrong = false;
        let what = '';
        try {
          // a new connection each: Bun's fetch now and then resets a pooled one before sending
          // (no line in HAProxy's log), which is the client's failure, not the replicas'
          const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-request-id': String(id) }, body: MIX[i]!, keepalive: false });
          const text = await res.text();
          if (res.status !== 200) what = `HTTP ${res.status}: ${text.slice(0, 120)}`;
          else if (text !== expected[i]) (wrong = true), (what = `wrong answer to ${MIX[i]!.slice(0, 80)}: ${text.slice(0, 120)}`);
          else ok = true;
        } catch (err) {
          what = `${(err as Error).message}`;
        }
        if (!ok) what += ` [${MIX[i]!.slice(0, 90)}]`;
        done.push({ id, start, end: performance.now(), ok, wrong, what });
      }
    };
    const clients = Array.from({ length: options.clients }, (_, c) => client(c));
    await Bun.sleep(options.phaseMs);

    // a rolling restart's step: SIGTERM, wait for the exit, start again once HAProxy has it down
    // with a long request in flight on it, sent straight to it (not through HAProxy, which might retry it)
    const probe = fetch(`http://127.0.0.1:${ports[0]}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: PROBE, keepalive: false }).then(
      async (res) => (await res.text()) === probeAnswer,
      () => false,
    );
    await Bun.sleep(50);
    const termAt = performance.now();
    log('SIGTERM to r1');
    process.kill(replicas[0]!.pid, 'SIGTERM');
    const probeAnswered = await probe;
    const sigtermExit = await replicas[0]!.exited;
    if (sigtermExit !== 0) log(`r1 exited ${sigtermExit} after SIGTERM:\n${replicas[0]!.output().slice(-1500)}`);
    children.delete(replicas[0]!);
    await up('r1', 'DOWN');
    replicas[0] = await replica(0);
    await up('r1', 'UP');
    const termEnd = performance.now();
    await Bun.sleep(options.phaseMs);

    // a crash: SIGKILL, restart the same way
    const killAt = performance.now();
    log('SIGKILL to r2');
    process.kill(replicas[1]!.pid, 'SIGKILL');
    await replicas[1]!.exited;
    children.delete(replicas[1]!);
    await up('r2', 'DOWN');
    replicas[1] = await replica(1);
    await up('r2', 'UP');
    await Bun.sleep(options.phaseMs);
    running = false;
    await Promise.all(clients);

    const heldByKill = (d: Done): boolean => d.start <= killAt && d.end >= killAt;
    const failed = done.filter((d) => !d.ok && !d.wrong);
    // where HAProxy sent each failed request: the SIGKILLed replica (r2) is the only one that may have dropped any
    await Bun.sleep(200); // its last log lines
    const servers = serversById(readFileSync(haproxyLog, 'utf8'));
    const notTheKilled = failed.filter((d) => servers.get(d.id) !== 'r2');
    const latencies = done.filter((d) => d.ok).map((d) => d.end - d.start).sort((a, b) => a - b);
    const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return {
      requests: done.length,
      wrong: done.filter((d) => d.wrong).length,
      failures: failed.length,
      failuresOfSigterm: failed.filter((d) => d.end >= termAt && d.start <= termEnd).length,
      failuresNotOfKilled: notTheKilled.length,
      failuresOfKill: failed.length - notTheKilled.length,
      failedAfterKill: failed.filter((d) => d.start > killAt).length,
      inFlightAtKill: done.filter(heldByKill).length,
      inFlightAtTerm: done.filter((d) => d.start <= termAt && d.end >= termAt).length,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      maxMs: latencies[latencies.length - 1] ?? 0,
      probeAnswered,
      sigtermExit,
      samples: done.filter((d) => !d.ok).slice(0, 5).map((d) => `${d.what} (request ${d.id}, ${Math.round(d.end - d.start)} ms, ${Math.round(d.start - termAt)} ms from the SIGTERM, sent to ${servers.get(d.id) ?? 'no replica in the log'})`),
    };
  } finally {
    await Promise.all([...[...children].map((child) => child.stop()), ...stops.map((stop) => stop())]);
    rmSync(work, { recursive: true, force: true });
  }
}

export interface ReplicasBench {
  readonly rows: readonly Row[];
  readonly details: ReplicasReport & { readonly clients: number; readonly phaseMs: number };
}

export async function replicasBench(clients: number, phaseMs: number): Promise<ReplicasBench> {
  const report = await replicasRun({ clients, phaseMs, log: (line) => process.stderr.write(`bench replicas: ${line}\n`) });
  const at = `HAProxy, 3 replicas, ${clients} clients, a SIGTERM and a SIGKILL with restarts:`;
  return {
    rows: [
      row(`${at} requests`, 'requests', report.requests, null),
      row(`${at} wrong answers`, 'requests', report.wrong, null, { op: '<=', value: 0 }),
      row(`${at} failed requests (${report.inFlightAtKill} were in flight at the SIGKILL)`, 'requests', report.failures, null, { op: '<=', value: 0 }),
      row(`${at} latency p99`, 'ms', report.p99Ms, null),
    ],
    details: { ...report, clients, phaseMs },
  };
}

if (import.meta.main) {
  const opts = scriptOptions(process.argv.slice(2), 'replicas.ts', { clients: 8, seconds: 5 });
  guardChildren(10 * 60 * 1000, (line) => process.stderr.write(`bench replicas: ${line}\n`));
  const report = await replicasBench(opts.clients, opts.seconds * 1000);
  process.stdout.write(opts.json ? `${JSON.stringify(report)}\n` : `${markdown(report.rows)}\n${JSON.stringify(report.details)}\n`);
}
