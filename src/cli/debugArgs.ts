// `blocktrace debug FIXTURE TX_HASH [--abi DIR]... [--json [--from N] [--to M] [--only-lines] [--values]]` and
// `blocktrace debug --upstream URL TX_HASH ...`. Pure: argv → DebugCommand or a usage message.
import { parseShowCommand, type ShowCommand, type ShowWording } from './showArgs.ts';

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

const FLAGS = ['--json', '--only-lines', '--values'];
const NUMBERS = ['--from', '--to'];

export function parseDebugCommand(argv: readonly string[]): DebugCommand | { kind: 'usage'; message: string } {
  // debug's own options first; the rest (source, --abi, --cache) are show's
  const rest: string[] = ['debug'];
  const flags = new Set<string>();
  const numbers = new Map<string, number>();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (FLAGS.includes(arg)) flags.add(arg);
    else if (NUMBERS.includes(name)) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined || !/^\d+$/.test(value)) return { kind: 'usage', message: `${name} needs a step number (from 0)` };
      numbers.set(name, Number(value));
    } else rest.push(arg);
  }
  const show = parseShowCommand(rest, DEBUG);
  if (show.kind === 'usage') return show;
  if (!/^0x[0-9a-fA-F]{64}$/.test(show.target)) return { kind: 'usage', message: `debug needs a transaction hash (0x and 64 hex digits), not ${show.target}` };
  const json = flags.has('--json');
  const from = numbers.get('--from');
  const to = numbers.get('--to');
  if (!json && (from !== undefined || to !== undefined || flags.has('--only-lines') || flags.has('--values'))) return { kind: 'usage', message: '--from, --to, --only-lines and --values go with --json' };
  if (from !== undefined && to !== undefined && to < from) return { kind: 'usage', message: `--to ${to} is before --from ${from}` };
  return { ...show, kind: 'debug', json, from, to, onlyLines: flags.has('--only-lines'), values: flags.has('--values') };
}
