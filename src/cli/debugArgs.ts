// `blocktrace debug FIXTURE TX_HASH [--abi DIR]... [--json [--from N] [--to M] [--only-lines] [--values]]` and
// `blocktrace debug --upstream URL TX_HASH ...`: the options made of what argv.ts read. Pure: a DebugCommand or a usage error.
import { catchUsage, readArgv } from './argv.ts';
import { OPT } from './options.ts';
import { showOf, type ShowCommand, type ShowWording } from './showArgs.ts';
import { usage } from './values.ts';

const DEBUG: ShowWording = { command: 'debug', target: 'a transaction hash', synopsis: 'blocktrace debug FIXTURE TX_HASH [--abi DIR]... [--json]' };

export interface DebugCommand extends Omit<ShowCommand, 'kind'> {
  readonly kind: 'debug';
  /** Print the steps as one JSON document instead of opening the terminal UI. */
  readonly json: boolean;
  readonly from: number | undefined;
  readonly to: number | undefined;
  readonly onlyLines: boolean;
  /** Each step also gives its call stack's values: arguments of each frame (`frames`). */
  readonly values: boolean;
}

export function parseDebugCommand(argv: readonly string[]): DebugCommand | { kind: 'usage'; message: string } {
  return catchUsage(() => {
    const p = readArgv(['debug'], argv.slice(1), 'debug');
    const show = showOf(p, DEBUG);
    if (!/^0x[0-9a-fA-F]{64}$/.test(show.target)) usage(`debug needs a transaction hash (0x and 64 hex digits), not ${show.target}`);
    const [json, from, to, onlyLines, values] = [p.has(OPT.json), p.last(OPT.fromStep), p.last(OPT.toStep), p.has(OPT.onlyLines), p.has(OPT.values)];
    if (!json && (from !== undefined || to !== undefined || onlyLines || values)) usage('--from, --to, --only-lines and --values go with --json');
    if (from !== undefined && to !== undefined && to < from) usage(`--to ${to} is before --from ${from}`);
    return { ...show, kind: 'debug', json, from, to, onlyLines, values };
  });
}
