// `blocktrace check FIXTURE GOLDEN…`: replays every recorded exchange and compares the answers.
// The report goes to stdout; progress (on a terminal) and diagnostics to stderr. Returns the exit
// status: 0 all passed, 1 a failure (or nothing selected), 2 a golden or the fixture unreadable.
import type { Writable } from 'node:stream';
import { GoldenError } from '../errors/goldenError.ts';
import { readAbiDirs } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import type { Artifact } from '../abi/types.ts';
import { type IgnoreRules, parseIgnores } from '../compare/ignore.ts';
import { contractLabels } from '../compare/labels.ts';
import { codeAtHead } from '../rpc/inProcess.ts';
import { type Exchange, type GoldenSet, readGolden } from '../golden/layouts.ts';
import { githubReport } from '../golden/reporters/github.ts';
import { jsonReport } from '../golden/reporters/json.ts';
import { junitReport } from '../golden/reporters/junit.ts';
import { markdownReport } from '../golden/reporters/markdown.ts';
import { textReport } from '../golden/reporters/text.ts';
import { type CheckReport, checkAll, select, shard } from '../golden/run.ts';
import { checkWritable, rewriteResponses, updatable } from '../golden/update.ts';
import { type CaseAnswers, caseKey, checkReportData } from '../htmlReport/checkReport.ts';
import { htmlReport, reportAbis } from '../htmlReport/htmlReport.ts';
import { reportPathProblem, writeReport } from '../htmlReport/writeReport.ts';
import type { ChainView } from '../replay/chainView.ts';
import { createContext, type RpcContext } from '../rpc/context.ts';
import type { CheckCommand } from './goldenArgs.ts';

export interface GoldenIo {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Show progress on stderr (it is a terminal). */
  readonly progress: boolean;
  /** One stderr line. */
  readonly log: (line: string) => void;
  /** Loads the fixture (with the replay cache of --cache/--no-cache); undefined (after saying why) when it cannot be loaded. */
  readonly load: (path: string, cache: string | false | undefined) => Promise<ChainView | undefined>;
}

export function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(text, (err) => (err ? reject(err) : resolve()));
  });
}

/** Every golden argument read and filtered; a GoldenError names what could not be read. */
export function readGoldens(paths: readonly string[], filters: readonly string[]): GoldenSet {
  const sets = paths.map(readGolden);
  return select({ exchanges: sets.flatMap((s) => s.exchanges), skipped: sets.flatMap((s) => s.skipped) }, filters);
}

/** No trace deadline: an answer that depends on the machine's speed cannot be a golden. */
export const goldenContext = (chain: ChainView, log: (line: string) => void, allTracers = false): RpcContext =>
  createContext(chain, { traceTimeoutMs: 0, log, allTracers });

const PROGRESS_EVERY_MS = 100;

/** `[i/n] name` rewritten in place on a terminal, at most every 100 ms. */
function progressLine(stderr: Writable): { show: (done: number, total: number, name: string) => void; clear: () => void } {
  let last = 0;
  let shown = false;
  return {
    show(done, total, name) {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      shown = true;
      stderr.write(`\r\x1b[K[${done + 1}/${total}] ${name}`);
    },
    clear() {
      if (shown) stderr.write('\r\x1b[K');
    },
  };
}

/** The artifacts of the --abi directories; a GoldenError names one that cannot be read, `log` one that holds none. */
function artifactsOf(dirs: readonly string[], log: (line: string) => void): Artifact[] {
  try {
    return readAbiDirs(dirs, log);
  } catch (err) {
    throw new GoldenError((err as Error).message);
  }
}

/** Everything check needs before the fixture loads; a GoldenError (exit 2) when anything is wrong. */
function prepare(options: CheckCommand, log: (line: string) => void): { set: GoldenSet; ignore: IgnoreRules; artifacts: Artifact[] } {
  for (const path of options.reports ?? []) {
    const problem = reportPathProblem(path);
    if (problem !== undefined) throw new GoldenError(`--report ${problem}`);
  }
  let ignore: IgnoreRules;
  try {
    ignore = parseIgnores(options.ignores);
  } catch (err) {
    throw new GoldenError((err as Error).message);
  }
  let set = readGoldens(options.goldens, options.filters);
  // a shard of a matrix with more jobs than cases may be empty: it passes with nothing to check
  if (options.shard !== undefined) set = shard(set, options.shard.index, options.shard.count);
  if (options.update) {
    const files = set.exchanges.filter(updatable).map((e) => e.file);
    if (files.length === 0 && set.exchanges.length > 0) {
      throw new GoldenError('--update: no golden here was written by record (NAME.response.json); .io files and JSON arrays are other clients\' recordings and are never rewritten');
    }
    checkWritable(files);
  }
  return { set, ignore, artifacts: artifactsOf(options.abiDirs, log) };
}

function render(options: CheckCommand, report: CheckReport): string {
  const run = { fixture: options.fixture, goldens: options.goldens };
  switch (options.reporter) {
    case 'json':
      return jsonReport(report, run);
    case 'junit':
      return junitReport(report, run);
    case 'github':
      return githubReport(report, run);
    case 'text':
      return textReport(report);
  }
}

/** `--update`: the failing cases' response files rewritten with our answers; the others named. */
function update(failed: readonly { exchange: Exchange; answer: string | undefined }[]): string {
  rewriteResponses(failed.filter(({ exchange }) => updatable(exchange)).map(({ exchange, answer }) => ({ file: exchange.file, answer })));
  const lines: string[] = [];
  for (const { exchange } of failed) {
    if (updatable(exchange)) {
      lines.push(`updated ${exchange.name}  (${exchange.file})`);
    } else {
      lines.push(`left ${exchange.name}  (${exchange.file}): ${exchange.layout === 'io' ? 'an .io file' : exchange.layout === 'packed' ? 'a compressed response' : 'a JSON array'} is another client's recording; --update never rewrites it`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** What `--report FILE` writes, by FILE's extension: a summary in Markdown, the JSON report, else the HTML page. */
const reportKind = (path: string): 'HTML' | 'Markdown' | 'JSON' => (path.endsWith('.md') ? 'Markdown' : path.endsWith('.json') ? 'JSON' : 'HTML');

/** `--report FILE.html`: the HTML report of the run, the failing cases' answers beside their recordings, contracts named. */
async function checkHtml(options: CheckCommand, report: CheckReport, failed: readonly { exchange: Exchange; answer: string | undefined }[], ctx: RpcContext, artifacts: readonly Artifact[], decoder: AbiDecoder | undefined): Promise<string> {
  const answers = new Map<string, CaseAnswers>(failed.map(({ exchange, answer }) => [caseKey(exchange), { expected: exchange.response, got: answer }]));
  const texts = failed.flatMap(({ exchange, answer }) => [exchange.response, answer]);
  const labels = decoder === undefined ? new Map<string, string>() : await contractLabels(codeAtHead(ctx), decoder, texts, new Map());
  const data = checkReportData(report, { fixture: options.fixture, goldens: options.goldens, answers, abis: reportAbis(artifacts), labels: Object.fromEntries(labels) });
  return htmlReport(data);
}

export async function check(options: CheckCommand, io: GoldenIo): Promise<number> {
  let prepared: ReturnType<typeof prepare>;
  try {
    prepared = prepare(options, io.log);
  } catch (err) {
    if (!(err instanceof GoldenError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
  const { set, ignore, artifacts } = prepared;
  const decoder = artifacts.length === 0 ? undefined : new AbiDecoder(artifacts);
  if (set.exchanges.length === 0 && set.skipped.length === 0 && options.shard === undefined) {
    io.log(`blocktrace: no recorded exchange matches --filter ${options.filters.join(', ')}`);
    return 1;
  }
  const chain = await io.load(options.fixture, options.cache);
  if (chain === undefined) return 2;
  const ctx = goldenContext(chain, io.log, options.allTracers);
  const progress = io.progress ? progressLine(io.stderr) : undefined;
  const failed: { exchange: Exchange; answer: string | undefined }[] = [];
  const keepFailed = options.update || (options.reports ?? []).some((path) => reportKind(path) === 'HTML');
  const report = await checkAll(ctx, set, {
    mode: options.mode,
    ignore,
    ...(decoder === undefined ? {} : { decoder }),
    ...(progress === undefined ? {} : { onCase: progress.show }),
    ...(keepFailed ? { onFail: (exchange: Exchange, answer: string | undefined) => void failed.push({ exchange, answer }) } : {}),
  });
  progress?.clear();
  await write(io.stdout, render(options, report));
  for (const path of options.reports ?? []) {
    const kind = reportKind(path);
    try {
      const run = { fixture: options.fixture, goldens: options.goldens };
      const text = kind === 'HTML' ? await checkHtml(options, report, failed, ctx, artifacts, decoder) : kind === 'Markdown' ? markdownReport(report, run) : jsonReport(report, run);
      const written = writeReport(path, text);
      io.log(`blocktrace: wrote the ${kind} report to ${written}`);
    } catch (err) {
      io.log(`blocktrace: --report ${path}: ${(err as Error).message}`);
      return 2;
    }
  }
  if (!options.update) return report.failed > 0 ? 1 : 0;
  try {
    const said = update(failed);
    if (said !== '') await write(io.stderr, said);
  } catch (err) {
    if (!(err instanceof GoldenError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
  return 0;
}
