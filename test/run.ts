// `npm test`: every test file, dealt into two lanes of about equal time (test/lanes.ts) that run
// side by side as two `bun test` processes, each with its temporary files and replay snapshots in a
// directory of its own (TMPDIR and XDG_CACHE_HOME; src/cache/snapshot.ts never writes to the user's
// cache) removed when the run ends, whatever its outcome. Each lane's output is printed whole when
// it ends; the last lines are the counts of both, in bun's words (`N pass`, `N fail`, `Ran …`).
//
//   bun test/run.ts [--quick | --e2e] [--lanes N] [--write-times] [BUN TEST ARGS…]
//
// --quick leaves out the end-to-end files (test/lanes.ts E2E), --e2e runs them alone. With a file
// or filter among the arguments (`npm test -- test/cache.test.ts`), one `bun test` runs with them,
// as before lanes. --write-times keeps each file's time of this run in test/fileTimes.json, which
// the next runs deal the lanes by.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lanes, readTimes, type Selection, selected, testFiles } from './lanes.ts';

const ROOT = join(import.meta.dir, '..');
const TIMES = join(import.meta.dir, 'fileTimes.json');

const argv = process.argv.slice(2);
let selection: Selection = 'all';
let laneCount = 2;
let writeTimes = false;
const passOn: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i]!;
  if (arg === '--quick') selection = 'quick';
  else if (arg === '--e2e') selection = 'e2e';
  else if (arg === '--write-times') writeTimes = true;
  else if (arg === '--lanes' && /^[1-9]\d*$/.test(argv[i + 1] ?? '')) laneCount = Number(argv[++i]);
  else passOn.push(arg);
}
// a value-taking bun flag's value is not a filter (-t NAME, --timeout MS, --bail N)
const VALUED = new Set(['-t', '--test-name-pattern', '--timeout', '--bail', '--preload', '--reporter', '--reporter-outfile', '--coverage-dir']);
const filtered = passOn.some((arg, i) => !arg.startsWith('-') && !VALUED.has(passOn[i - 1] ?? ''));

const root = mkdtempSync(join(tmpdir(), 'blocktrace-test-run-'));
const started = performance.now();

interface Lane {
  readonly name: string;
  readonly args: readonly string[];
}

const plan: Lane[] = filtered
  ? [{ name: 'bun test', args: passOn }]
  : lanes(selected(testFiles(ROOT), selection), laneCount, readTimes(TIMES)).map((files, i, all) => ({
    name: `lane ${i + 1} of ${all.length} (${files.length} files)`,
    args: [...passOn, ...files.map((file) => `./${file}`)],
  }));

/** Writes `text` to stdout and waits until it is written: a lane's output is large, and exit drops what a pipe has not taken. */
const print = (text: string): Promise<void> => new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));

const children: Bun.Subprocess[] = [];
// a Ctrl-C reaches the lanes as well (same process group): wait for them, then clean up
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => children.forEach((child) => child.kill(signal)));

async function runLane(lane: Lane, index: number): Promise<{ code: number; output: string }> {
  const dir = join(root, `lane${index}`);
  const cache = join(dir, 'cache');
  mkdirSync(cache, { recursive: true });
  const env = { ...process.env, TMPDIR: dir, XDG_CACHE_HOME: cache, BLOCKTRACE_TEST_RUN: dir };
  const cmd = [process.execPath, 'test', '--timeout', '120000', ...lane.args];
  if (plan.length === 1) {
    // one lane: its output as it comes, as a plain `bun test` prints it
    const child = Bun.spawn(cmd, { cwd: ROOT, stdio: ['inherit', 'inherit', 'inherit'], env });
    children.push(child);
    return { code: await child.exited, output: '' };
  }
  const child = Bun.spawn(cmd, { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe', env });
  children.push(child);
  // both streams into one text, in the order they come (bun test reports on stderr, tests log on stdout)
  const pieces: string[] = [];
  const drain = async (stream: ReadableStream<Uint8Array>): Promise<void> => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) pieces.push(decoder.decode(chunk, { stream: true }));
  };
  await Promise.all([drain(child.stdout), drain(child.stderr)]);
  const code = await child.exited;
  const output = pieces.join('');
  await print(`\n── ${lane.name}: exit ${code} ──\n${output}`);
  return { code, output };
}

const results = await Promise.all(plan.map(runLane));
const seconds = (performance.now() - started) / 1000;

if (plan.length > 1) {
  const total = (pattern: RegExp): number => results.reduce((sum, { output }) => sum + Number(pattern.exec(output)?.[1] ?? 0), 0);
  const failed = results.flatMap(({ output }) => output.split('\n').filter((line) => line.startsWith('(fail)')));
  const crashed = results.filter(({ code, output }) => code !== 0 && !/^\s*\d+ fail$/m.test(output)).length;
  await print(`\n── ${plan.length} lanes, ${seconds.toFixed(0)} s ──\n`);
  if (failed.length > 0) await print(`${failed.length} tests failed:\n${failed.join('\n')}\n\n`);
  if (crashed > 0) await print(`${crashed} lane(s) ended without bun's counts\n`);
  await print(` ${total(/^\s*(\d+) pass$/m)} pass\n ${total(/^\s*(\d+) fail$/m)} fail\n`);
  await print(`Ran ${total(/^Ran (\d+) tests/m)} tests across ${total(/^Ran \d+ tests? across (\d+) files?/m)} files. [${seconds.toFixed(2)}s]\n`);
  if (writeTimes) {
    const times = { ...readTimes(TIMES), ...fileTimes(results.map(({ output }) => output).join('\n')) };
    writeFileSync(TIMES, `${JSON.stringify(Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b))), null, 1)}\n`);
  }
}

rmSync(root, { recursive: true, force: true });
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);

/** Seconds each file's tests took, from bun's output (a file's heading, then its tests with their times). */
function fileTimes(output: string): Record<string, number> {
  const times: Record<string, number> = {};
  let file: string | undefined;
  for (const line of output.split('\n')) {
    const heading = /^(\S+\.test\.ts):$/.exec(line);
    if (heading !== null) {
      file = heading[1]!;
      times[file] = 0;
      continue;
    }
    const took = /^\((?:pass|fail)\).*\[([\d.]+)(ms|s)\]$/.exec(line);
    if (took !== null && file !== undefined) times[file] = Math.round((times[file]! + Number(took[1]) * (took[2] === 's' ? 1 : 0.001)) * 10) / 10;
  }
  return times;
}
