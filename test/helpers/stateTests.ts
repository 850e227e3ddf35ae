// Runs state-test files (ethereum/tests GeneralStateTests, execution-spec-tests state_tests) through
// blocktrace in this process: every test, every fork of its post and every index, each loaded as
// `FILE#TEST#FORK#INDEX` (its post-state root and logs hash checked, or its expected exception the
// refusal), with --trace each block through callTracer, prestateTracer (plain and diff), trace_block
// and the struct logger. Prints each entry that does not pass with its reason, then a table per
// folder and fork (markdown, as docs/conformance.md holds it). Not part of `npm test`: a tool to
// run a checkout of those suites through blocktrace.
//
//   bun test/helpers/stateTests.ts ROOT [--every N] [--part I/M] [--skip REGEX] [--fork NAME]... [--trace] [--json FILE]
//
// ROOT is a directory of state-test files; --every N takes every Nth file of it (sorted by path),
// --part I/M the Ith of M shares of those (for M processes), --skip leaves out the paths it matches;
// the folder of a file is its first directory below ROOT (Pyspecs: the next two as well).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FixtureError } from '../../src/errors/fixtureError.ts';
import { fromStateTest } from '../../src/fixture/stateTest.ts';
import { forkPosition } from '../../src/fixture/forks.ts';
import { FixtureChain } from '../../src/replay/chain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const TRACES = [
  { method: 'debug_traceBlockByNumber', config: { tracer: 'callTracer' } },
  { method: 'debug_traceBlockByNumber', config: { tracer: 'prestateTracer' } },
  { method: 'debug_traceBlockByNumber', config: { tracer: 'prestateTracer', tracerConfig: { diffMode: true } } },
  { method: 'trace_block', config: undefined },
  { method: 'debug_traceBlockByNumber', config: { disableStorage: true } },
] as const;

/** How one entry (test, fork, index) ended. */
export type Verdict = 'passed' | 'refused as expected' | 'wrong root' | 'wrong logs' | 'ran, expected refused' | 'refused, not expected' | 'fork unknown' | 'trace failed' | 'crashed';

export interface Outcome {
  readonly entry: string;
  readonly verdict: Verdict;
  readonly reason: string | undefined;
}

/** Loads one entry of a parsed state-test file and, with `trace`, traces its block. */
export async function runEntry(file: string, json: Record<string, unknown>, name: string, fork: string, index: number, trace: boolean): Promise<Outcome> {
  const entry = `${file}#${name}#${fork}#${index}`;
  if (forkPosition(fork) === undefined) return { entry, verdict: 'fork unknown', reason: `blocktrace has no rules for ${fork}` };
  let chain: FixtureChain;
  try {
    const { spec } = fromStateTest(file, json, `${name}#${fork}#${index}`);
    chain = await FixtureChain.load(spec);
  } catch (error) {
    const line = (error as Error).message.split('\n')[0]!;
    if (!(error instanceof FixtureError)) return { entry, verdict: 'crashed', reason: line };
    if (line.includes('is refused, as the test expects')) return { entry, verdict: 'refused as expected', reason: undefined };
    if (line.includes('final state differs')) return { entry, verdict: 'wrong root', reason: line };
    if (line.includes('logs differ')) return { entry, verdict: 'wrong logs', reason: line };
    if (line.includes('but blocktrace ran it')) return { entry, verdict: 'ran, expected refused', reason: line };
    return { entry, verdict: 'refused, not expected', reason: line };
  }
  if (trace) {
    const ctx = createContext(chain, { cacheResults: false, log: () => {}, allTracers: true });
    const n = `0x${chain.head.number.toString(16)}`;
    for (const t of TRACES) {
      const params = t.config === undefined ? [n] : [n, t.config];
      const answer = (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: t.method, params }), ctx)) ?? '';
      // the struct logger's answer past --max-response is refused by design (-32003), not a failure
      if (answer.includes('"code":-32003,"message":"response too large"')) continue;
      if (!answer.startsWith('{"jsonrpc":"2.0","id":1,"result":')) return { entry, verdict: 'trace failed', reason: `${t.method} ${JSON.stringify(t.config ?? {})}: ${answer.slice(0, 200)}` };
    }
  }
  return { entry, verdict: 'passed', reason: undefined };
}

function* jsonFiles(path: string): Generator<string> {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) yield* jsonFiles(join(path, entry));
  } else if (path.endsWith('.json')) {
    yield path;
  }
}

/** The folder a file is counted under: its first directory below the root (Pyspecs: three). */
function folderOf(root: string, file: string): string {
  const parts = relative(root, file).split(sep).slice(0, -1);
  return parts[0] === 'Pyspecs' ? parts.slice(0, 3).join('/') : (parts[0] ?? '.');
}

const PASSING: ReadonlySet<Verdict> = new Set(['passed', 'refused as expected']);

function option(args: readonly string[], name: string): string[] {
  return args.flatMap((a, i) => (a === name && args[i + 1] !== undefined ? [args[i + 1]!] : []));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const root = args[0];
  if (root === undefined) {
    process.stderr.write('usage: bun test/helpers/stateTests.ts ROOT [--every N] [--part I/M] [--skip REGEX] [--fork NAME]... [--trace] [--json FILE]\n');
    process.exit(2);
  }
  const every = Number(option(args, '--every')[0] ?? '1');
  const forks = new Set(option(args, '--fork').map((f) => f.toLowerCase()));
  const trace = args.includes('--trace');
  const jsonOut = option(args, '--json')[0];
  const [part, parts] = (option(args, '--part')[0] ?? '0/1').split('/').map(Number) as [number, number];
  const skip = option(args, '--skip').map((r) => new RegExp(r));
  const files = [...jsonFiles(root)].filter((_, i) => i % every === 0).filter((_, i) => i % parts === part).filter((f) => !skip.some((r) => r.test(f)));
  // folder → fork → verdict → count
  const table = new Map<string, Map<string, Map<Verdict, number>>>();
  const outcomes: Outcome[] = [];
  const started = Date.now();
  for (const file of files) {
    let json: Record<string, unknown>;
    try {
      json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      process.stdout.write(`FILE ${file}: ${(error as Error).message}\n`);
      continue;
    }
    const folder = folderOf(root, file);
    process.stderr.write(`${relative(root, file)} (${outcomes.length} entries so far)\n`);
    for (const [name, test] of Object.entries(json)) {
      const post = (test as { post?: Record<string, unknown[]> }).post ?? {};
      for (const [fork, entries] of Object.entries(post)) {
        if (forks.size > 0 && !forks.has(fork.toLowerCase())) continue;
        for (let index = 0; index < entries.length; index++) {
          const outcome = await runEntry(file, json, name, fork, index, trace);
          outcomes.push(outcome);
          const byFork = table.get(folder) ?? new Map<string, Map<Verdict, number>>();
          table.set(folder, byFork);
          const counts = byFork.get(fork) ?? new Map<Verdict, number>();
          byFork.set(fork, counts);
          counts.set(outcome.verdict, (counts.get(outcome.verdict) ?? 0) + 1);
          if (!PASSING.has(outcome.verdict)) process.stdout.write(`${outcome.verdict.toUpperCase()} ${outcome.entry}: ${outcome.reason}\n`);
        }
      }
    }
  }
  const lines = ['| folder | fork | entries | passed | refused as expected | not passing |', '| --- | --- | ---: | ---: | ---: | --- |'];
  const totals = new Map<Verdict, number>();
  for (const [folder, byFork] of [...table].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    for (const [fork, counts] of [...byFork].sort((a, b) => (forkPosition(a[0]) ?? 99) - (forkPosition(b[0]) ?? 99))) {
      const all = [...counts.values()].reduce((a, b) => a + b, 0);
      const bad = [...counts].filter(([v]) => !PASSING.has(v)).map(([v, n]) => `${n} ${v}`).join(', ');
      lines.push(`| ${folder} | ${fork} | ${all} | ${counts.get('passed') ?? 0} | ${counts.get('refused as expected') ?? 0} | ${bad === '' ? '0' : bad} |`);
      for (const [v, n] of counts) totals.set(v, (totals.get(v) ?? 0) + n);
    }
  }
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
  process.stdout.write(`${files.length} files, ${outcomes.length} entries: ${[...totals].map(([v, n]) => `${n} ${v}`).join(', ')} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  if (jsonOut !== undefined) writeFileSync(jsonOut, JSON.stringify({ files: files.length, totals: Object.fromEntries(totals), outcomes: outcomes.filter((o) => !PASSING.has(o.verdict)) }, null, 1));
}
