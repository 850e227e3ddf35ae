// What can be checked here of deploy/ (issue 50, item 5) without a Docker daemon or a cluster: the
// executable the Dockerfile ships (dist/blocktrace, as `bun build.ts DIR` makes it) runs with the
// Dockerfile's CMD (its host and port moved to 127.0.0.1 and a free port, its cache to a temporary
// directory), says ready on /health and drains on SIGTERM with exit 0; the Kubernetes manifests parse,
// their readiness probe is GET /health on the container's port, the Service reaches that port, and
// the container's arguments are ones blocktrace's parser takes; HAProxy accepts deploy/haproxy.cfg.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild, stopAll } from '../bench/procs.ts';
import { parseArgs } from '../src/cli/args.ts';
import { BUN, ROOT } from './faces.ts';

const DEPLOY = join(ROOT, 'deploy');
const work = mkdtempSync(join(tmpdir(), 'blocktrace-deploy-'));
afterAll(async () => {
  await stopAll();
  rmSync(work, { recursive: true, force: true });
});

/** The Dockerfile's instructions of the last stage (the image), each with its arguments. */
function lastStage(): { copies: string[][]; entrypoint: string[]; cmd: string[] } {
  const text = readFileSync(join(DEPLOY, 'Dockerfile'), 'utf8');
  const stages = text.split(/^FROM /m);
  const lines = stages[stages.length - 1]!.split('\n').filter((l) => !l.startsWith('#'));
  const exec = (name: string): string[] => JSON.parse(lines.find((l) => l.startsWith(`${name} `))!.slice(name.length + 1)) as string[];
  return { copies: lines.filter((l) => l.startsWith('COPY ')).map((l) => l.split(/\s+/).slice(1)), entrypoint: exec('ENTRYPOINT'), cmd: exec('CMD') };
}

let binary: string;
beforeAll(() => {
  const built = spawnSync(BUN, ['build.ts', work], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (built.status !== 0) throw new Error(`bun build.ts failed: ${built.stderr}`);
  binary = join(work, 'blocktrace');
}, 300_000);

test('the Dockerfile ships dist/blocktrace as its entrypoint, and that executable serves with its CMD: ready, then a SIGTERM drains it with exit 0', async () => {
  const { copies, entrypoint, cmd } = lastStage();
  expect(copies).toContainEqual(['--from=build', '/src/dist/blocktrace', entrypoint[0]!]);
  expect(entrypoint).toEqual(['/usr/local/bin/blocktrace']);
  const parsed = parseArgs(cmd);
  expect(parsed).toMatchObject({ kind: 'serve', host: '0.0.0.0', port: 8545, cache: '/cache', log: 'json' });
  // here: loopback, a free port, a cache of its own
  const args = cmd.map((a, i) => (cmd[i - 1] === '--host' ? '127.0.0.1' : cmd[i - 1] === '--port' ? '0' : cmd[i - 1] === '--cache' ? join(work, 'cache') : a));
  const server = spawnChild('dist/blocktrace', [binary, ...args], work);
  const url = (await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+\/)/, 60_000))[1]!;
  await server.waitFor(/^chain /m, 60_000);
  const health = await fetch(`${url}health`);
  expect(health.status).toBe(200);
  expect(((await health.json()) as { status: string }).status).toBe('ready');
  const answer = await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' })).text();
  expect(answer).toBe('{"jsonrpc":"2.0","id":1,"result":"0x6c5662"}');
  process.kill(server.pid, 'SIGTERM');
  expect(await server.exited).toBe(0);
  // --log json: the requests above, one JSON object a line
  const logged = server.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { method: string | null; path: string; status: number });
  expect(logged.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
    { method: null, path: '/health', status: 200 },
    { method: 'eth_chainId', path: '/', status: 200 },
  ]);
}, 120_000);

test('the Kubernetes manifests: a Deployment ready on GET /health of its RPC port, arguments blocktrace takes, a Service onto that port', () => {
  const docs = Bun.YAML.parse(readFileSync(join(DEPLOY, 'kubernetes.yaml'), 'utf8')) as Record<string, any>[];
  expect(docs.map((d) => d['kind'])).toEqual(['Deployment', 'Service']);
  const [deployment, service] = docs as [Record<string, any>, Record<string, any>];
  const pod = deployment['spec']['template'];
  expect(deployment['spec']['selector']['matchLabels']).toEqual(pod['metadata']['labels']);
  expect(service['spec']['selector']).toEqual(pod['metadata']['labels']);
  const [container] = pod['spec']['containers'] as Record<string, any>[];
  const port = (container!['ports'] as { name: string; containerPort: number }[])[0]!;
  expect(container!['readinessProbe']['httpGet']).toEqual({ path: '/health', port: port.name });
  expect(service['spec']['ports'][0]['targetPort']).toBe(port.name);
  const parsed = parseArgs(container!['args'] as string[]);
  expect(parsed).toMatchObject({ kind: 'serve', host: '0.0.0.0', port: port.containerPort, cache: container!['volumeMounts'][0]['mountPath'] });
  // the grace period covers the preStop pause and the drain
  const drainMs = (parsed as { shutdownTimeoutMs: number }).shutdownTimeoutMs;
  const pauseS = Number((container!['lifecycle']['preStop']['exec']['command'] as string[])[1]);
  expect(pod['spec']['terminationGracePeriodSeconds'] * 1000).toBeGreaterThan(pauseS * 1000 + drainMs);
});

test.skipIf(Bun.which('haproxy') === null)('HAProxy accepts deploy/haproxy.cfg', () => {
  const checked = spawnSync('haproxy', ['-c', '-f', join(DEPLOY, 'haproxy.cfg')], { encoding: 'utf8', timeout: 10_000 });
  expect({ status: checked.status, out: checked.stdout.trim() }).toEqual({ status: 0, out: 'Configuration file is valid' });
});
