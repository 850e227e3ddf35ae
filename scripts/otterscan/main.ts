// `npm run otterscan`: the real Otterscan app (v2.10.0, built from its source) against `blocktrace
// serve` of cancun-devnet, driven in headless Chromium through the pages issue 38 names. One line
// per check (PASS/FAIL, what the page showed, its screenshot), then a summary; exit 0 only when
// every check passes. Not part of `npm test`: Otterscan's build is large (docs/otterscan.md).
// Loopback only: requests to any other host are aborted and listed; every process it starts is
// stopped by its PID, also on failure, SIGINT and a deadline.
//
//   bun scripts/otterscan/main.ts [--otterscan DIR] [--git REPO] [--out DIR]
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Server, startBlocktrace } from '../../bench/blocktrace.ts';
import { guardChildren } from '../../bench/procs.ts';
import { defaultCacheDir } from '../../src/cache/snapshot.ts';
import { OTTERSCAN, otterscanBuild } from './build.ts';
import { Chain } from './chain.ts';
import { CHECKS, type Outcome } from './checks.ts';
import { type Events, openSession, type Session } from './session.ts';
import { serveStatic, type StaticServer } from './staticServer.ts';

const ROOT = resolve(import.meta.dir, '../..');
const FIXTURE = 'golden/fixtures/cancun-devnet/fixture.json';
const CHECK_MS = 90_000;
const DEADLINE_MS = 15 * 60 * 1000;
const USAGE = `usage: bun scripts/otterscan/main.ts [--otterscan DIR] [--git REPO] [--out DIR]
  --otterscan DIR  an Otterscan build (index.html) or checkout (package.json; built into DIR/dist once)
  --git REPO       where Otterscan ${OTTERSCAN.tag} is fetched from when nothing is built yet (default ${OTTERSCAN.repository})
  --out DIR        where the screenshots go (default: a new folder under ${tmpdir()})`;

const log = (line: string): void => void process.stderr.write(`otterscan: ${line}\n`);

interface Options {
  readonly otterscan: string | undefined;
  readonly git: string;
  readonly out: string | undefined;
}

function options(argv: readonly string[]): Options {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!;
    const value = argv[i + 1];
    if (!['--otterscan', '--git', '--out'].includes(key) || value === undefined) throw new Error(USAGE);
    values.set(key, value);
  }
  const path = (key: string): string | undefined => (values.has(key) ? resolve(values.get(key)!) : undefined);
  return { otterscan: path('--otterscan'), git: values.get('--git') ?? OTTERSCAN.repository, out: path('--out') };
}

/** Runs one check, bounded in time; a check that throws fails with its message. */
async function runCheck(check: (typeof CHECKS)[number], session: Session, chain: Chain): Promise<Outcome> {
  let timer: Timer | undefined;
  const timeout = new Promise<Outcome>((done) => (timer = setTimeout(() => done({ pass: false, detail: `did not finish in ${CHECK_MS / 1000} s` }), CHECK_MS)));
  try {
    return await Promise.race([check.run(session, chain), timeout]);
  } catch (error) {
    return { pass: false, detail: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** The JSON-RPC errors blocktrace answered the page since call number `from`, one per method and error. */
function rpcErrors(events: Events, from: number): string {
  const seen = new Set<string>();
  for (const call of events.rpc.slice(from)) if (call.error !== undefined) seen.add(`${call.method} ${JSON.stringify(call.params)} → ${call.error.code} ${call.error.message}`);
  return [...seen].join('; ');
}

/** Console errors are allowed only for the requests to other hosts that were aborted (Sourcify's and the like). */
function consoleCheck(events: Events): Outcome {
  const external = (url: string): boolean => url !== '' && new URL(url).hostname !== '127.0.0.1' && events.external.has(new URL(url).host);
  const unexpected = events.consoleErrors.filter((e) => !external(e.url));
  const problems = [...unexpected.map((e) => `console error on ${new URL(e.page).pathname}: ${e.text.split('\n')[0]}`), ...events.failedRequests];
  const hosts = [...events.external].map(([host, urls]) => `${host} (${urls.length} requests)`).join(', ') || 'none';
  return { pass: problems.length === 0, detail: `${problems.length === 0 ? 'no console errors but the aborted requests to other hosts' : problems.join(' | ')}; other hosts asked (aborted): ${hosts}` };
}

async function main(): Promise<number> {
  const opts = options(process.argv.slice(2));
  const cache = defaultCacheDir(process.env) ?? join(tmpdir(), 'blocktrace');
  const dist = otterscanBuild({ otterscan: opts.otterscan, git: opts.git, cache, log });
  const out = opts.out ?? mkdtempSync(join(tmpdir(), 'blocktrace-otterscan-'));
  mkdirSync(out, { recursive: true });
  guardChildren(DEADLINE_MS, log);

  let statics: StaticServer | undefined;
  let server: Server | undefined;
  let session: Session | undefined;
  try {
    statics = serveStatic(dist);
    // --no-cache: the chain index the ots_* answers read is made by the code under check, not read from a snapshot
    server = await startBlocktrace([process.execPath, 'src/cli.ts'], FIXTURE, ROOT, 'blocktrace', ['--no-cache', '--cors', statics.origin]);
    statics.pointAt(server.url);
    log(`Otterscan ${dist} at ${statics.origin}, blocktrace serve ${FIXTURE} at ${server.url} (--cors ${statics.origin}), screenshots in ${out}`);
    session = await openSession(statics.origin, server.url, out);
    const chain = new Chain(server.url);
    let failed = 0;
    for (const check of CHECKS) {
      const from = session.events.rpc.length;
      const outcome = await runCheck(check, session, chain);
      const shot = await session.screenshot(check.shot);
      const errors = rpcErrors(session.events, from);
      if (!outcome.pass) failed++;
      console.log(`${outcome.pass ? 'PASS' : 'FAIL'}  ${check.name}: ${outcome.detail}${errors === '' ? '' : ` [JSON-RPC errors the page got: ${errors}]`} (${shot})`);
    }
    const consoleOutcome = consoleCheck(session.events);
    if (!consoleOutcome.pass) failed++;
    console.log(`${consoleOutcome.pass ? 'PASS' : 'FAIL'}  console and requests: ${consoleOutcome.detail}`);
    if (statics.missing.size > 0) log(`files the app asked for that the build lacks (answered index.html, as Otterscan's nginx does): ${[...statics.missing].join(', ')}`);
    const total = CHECKS.length + 1;
    console.log(`${total - failed} of ${total} checks passed${failed === 0 ? '' : `, ${failed} failed`}; screenshots in ${out}`);
    return failed === 0 ? 0 : 1;
  } finally {
    await session?.close();
    await server?.child.stop();
    statics?.stop();
  }
}

try {
  process.exit(await main());
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
