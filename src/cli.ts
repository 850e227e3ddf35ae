#!/usr/bin/env bun
// The entry: parses argv, starts a command, owns the exit status. A command's modules are imported
// when it runs, so --help and --version cost no more than the runtime's own start.
// Data goes to stdout (harness answers only); everything else goes to stderr.
import { parseArgs, HELP_TEXT } from './cli/args.ts';
import { METHOD_LIST, OPT_IN_METHOD_LIST } from './cli/methodList.ts';
import { VERSION } from './version.ts';

// ethereumjs makes a `debug` logger for every trie, state manager and journal it builds (several
// for each eth_call), and `debug` asks isatty(stderr) for each one to choose its colours, a system
// call per logger on every call's path. blocktrace never turns those loggers on; their colours are
// decided here once.
// Deno without --allow-env refuses even this: --help and --version need no environment, and the
// commands that do read it stop with one line naming the flag (below).
try {
  process.env.DEBUG_COLORS ??= 'no';
} catch {}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Names joined by ", " in lines of at most 100 characters. */
function wrapList(names: readonly string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const name of names) {
    const next = line === '' ? name : `${line}, ${name}`;
    if (next.length > 98 && line !== '') {
      lines.push(`${line},`);
      line = name;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines.map((l) => `  ${l}`).join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const options = parseArgs(argv);
  switch (options.kind) {
    case 'help':
      // the dispatcher's method names (kept equal to its table by test/methodTable.test.ts)
      process.stdout.write(`${HELP_TEXT}${wrapList(METHOD_LIST)}\n\nWith --all-tracers, also:\n${wrapList(OPT_IN_METHOD_LIST)}\n`);
      return 0;
    case 'version':
      process.stdout.write(`blocktrace ${VERSION}\n`);
      return 0;
    case 'usage':
      log(`blocktrace: ${options.message} (see blocktrace --help)`);
      return 2;
    default:
      return (await import('./cli/run.ts')).run(options);
  }
}

/** A closed stdout (`blocktrace show … | head -1`): the reader has what it wanted; end quietly. */
const closedPipe = (err: unknown): boolean => (err as { code?: string } | undefined)?.code === 'EPIPE';
process.stdout.on('error', (err) => {
  if (closedPipe(err)) process.exit(0);
});

main(process.argv.slice(2)).then(
  (code) => {
    // let stdout drain instead of process.exit(): the harness's last lines must not be lost
    process.exitCode = code;
  },
  async (err: unknown) => {
    if (closedPipe(err)) process.exit(0);
    // a permission Deno refused: one line naming its flag (imported here, on failure only)
    const denied = (await import('./cli/denoPermission.ts')).denoPermissionLine(err);
    log(denied ?? `blocktrace: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(denied === undefined ? 1 : 2);
  },
);
