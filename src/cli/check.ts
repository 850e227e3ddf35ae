// `blocktrace check FIXTURE GOLDEN…`: replays every recorded exchange and compares the answers.
// The report goes to stdout; progress (on a terminal) and diagnostics to stderr. Returns the exit
// status: 0 all passed, 1 a failure (or nothing selected), 2 a golden or the fixture unreadable.
import type { Writable } from 'node:stream';
import { GoldenError } from '../errors/goldenError.ts';
import type { GoldenSet } from '../golden/layouts.ts';
import { readGolden } from '../golden/layouts.ts';
import { jsonReport, textReport } from '../golden/report.ts';
import { checkAll, select } from '../golden/run.ts';
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
  /** Loads the fixture; undefined (after saying why) when it cannot be loaded. */
  readonly load: (path: string) => Promise<ChainView | undefined>;
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

export async function check(options: CheckCommand, io: GoldenIo): Promise<number> {
  let set: GoldenSet;
  try {
    set = readGoldens(options.goldens, options.filters);
  } catch (err) {
    if (!(err instanceof GoldenError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
  if (set.exchanges.length === 0 && set.skipped.length === 0) {
    io.log(`blocktrace: no recorded exchange matches --filter ${options.filters.join(', ')}`);
    return 1;
  }
  const chain = await io.load(options.fixture);
  if (chain === undefined) return 2;
  const ctx = goldenContext(chain, io.log, options.allTracers);
  const progress = io.progress ? progressLine(io.stderr) : undefined;
  const report = await checkAll(ctx, set, { mode: options.mode, ...(progress === undefined ? {} : { onCase: progress.show }) });
  progress?.clear();
  await write(io.stdout, options.json ? jsonReport(report, { fixture: options.fixture, goldens: options.goldens }) : textReport(report));
  return report.failed > 0 ? 1 : 0;
}
