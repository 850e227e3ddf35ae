// The table of options against `--help` and against every command: the same slip gets the same line
// from each (docs/cli.md, "Usage errors").
import { describe, expect, test } from 'bun:test';
import { HELP_TEXT, parseArgs } from './args.ts';
import { type Command, OPTIONS } from './options.ts';

const URL = 'http://127.0.0.1:8545';
const HASH = `0x${'ab'.repeat(32)}`;

/** Each command: a line it takes, how its messages name it, a typo of one of its options, and a valued option given as --x v. */
const COMMANDS: readonly { command: Command; argv: string[]; label: string; typo: [string, string]; valued: [string, string] }[] = [
  { command: 'serve', argv: ['serve', 'f.json'], label: 'serve: ', typo: ['--prot', '--port'], valued: ['--port', '9000'] },
  { command: 'harness', argv: ['--replay-file', 'f.json'], label: '', typo: ['--max-bach', '--max-batch'], valued: ['--max-batch', '5'] },
  { command: 'check', argv: ['check', 'f.json', 'g'], label: 'check: ', typo: ['--ignor', '--ignore'], valued: ['--filter', 'x'] },
  { command: 'record', argv: ['record', 'f.json', 'r', '--out', 'd'], label: 'record: ', typo: ['--compat', '--compact'], valued: ['--filter', 'x'] },
  { command: 'capture', argv: ['capture', '--rpc', URL, '--block', '5', '--out', 'f'], label: 'capture: ', typo: ['--rcp', '--rpc'], valued: ['--to', '6'] },
  { command: 'show', argv: ['show', 'f.json', '0x5'], label: 'show: ', typo: ['--abii', '--abi'], valued: ['--abi', 'out'] },
  { command: 'debug', argv: ['debug', 'f.json', HASH], label: 'debug: ', typo: ['--only-line', '--only-lines'], valued: ['--abi', 'out'] },
  { command: 'diff', argv: ['diff', 'a.json', 'b.json'], label: 'diff: ', typo: ['--any-chian', '--any-chain'], valued: ['--report', 'r.html'] },
  { command: 'cache ls', argv: ['cache', 'ls'], label: 'cache ls: ', typo: ['--cahce', '--cache'], valued: ['--cache', 'd'] },
  { command: 'cache clear', argv: ['cache', 'clear'], label: 'cache clear: ', typo: ['--cahce', '--cache'], valued: ['--cache', 'd'] },
];

const message = (argv: readonly string[]): string | undefined => {
  const got = parseArgs(argv);
  return got.kind === 'usage' ? got.message : undefined;
};

describe.each(COMMANDS)('$command', ({ command, argv, label, typo, valued }) => {
  const takes = (name: string): boolean => OPTIONS.some((o) => o.name === name && o.commands.includes(command));

  test('the line it takes is taken', () => {
    expect(message(argv)).toBeUndefined();
  });

  test('an unknown option, and a typo of a known one', () => {
    expect(message([...argv, '--frobnicate'])).toBe(`${label}unknown option --frobnicate`);
    expect(message([...argv, '--frobnicate=1'])).toBe(`${label}unknown option --frobnicate`);
    expect(message([...argv, typo[0]])).toBe(`${label}unknown option ${typo[0]} (did you mean ${typo[1]}?)`);
  });

  test('--cache DIR with --no-cache is refused', () => {
    const refusal = !takes('--cache') ? 'unknown option --cache' : !takes('--no-cache') ? 'unknown option --no-cache' : '--cache and --no-cache exclude each other';
    expect(message([...argv, '--cache', 'd', '--no-cache'])).toBe(`${label}${refusal}`);
    if (takes('--no-cache')) expect(message([...argv, '--no-cache', '--cache=d'])).toBe(`${label}${refusal}`);
  });

  test('--x=v is --x v; a value missing, or given to a flag', () => {
    const [name, value] = valued;
    expect(message([...argv, `${name}=${value}`])).toBeUndefined();
    expect(parseArgs([...argv, `${name}=${value}`])).toEqual(parseArgs([...argv, name, value]));
    expect(message([...argv, name])).toBe(`${label}${name} needs a value`);
    expect(message([...argv, `${name}=`])).toBe(`${label}${name} needs a value`);
    const flag = OPTIONS.find((o) => o.meta === undefined && o.commands.includes(command));
    if (flag !== undefined) expect(message([...argv, `${flag.name}=yes`])).toBe(`${label}${flag.name} takes no value`);
  });
});

test('an unexpected argument and an unknown command: one shape', () => {
  expect(message(['serve', 'f.json', 'g.json'])).toBe('serve: unexpected argument g.json');
  expect(message(['record', 'f.json', 'r', 'extra', '--out', 'd'])).toBe('record: unexpected argument extra');
  expect(message(['capture', 'x', '--rpc', URL])).toBe('capture: unexpected argument x');
  expect(message(['show', 'f.json', '0x5', '0x6'])).toBe('show: unexpected argument 0x6');
  expect(message(['cache', 'ls', 'f.json'])).toBe('cache ls: unexpected argument f.json');
  expect(message(['--replay-file', 'f.json', 'nonsense'])).toBe('unexpected argument nonsense (a request is a JSON text, or comes after --)');
  expect(message(['chek', 'f.json', 'g'])).toBe('unknown command chek (did you mean check?)');
  expect(message(['cache', 'lss'])).toBe('cache: unknown command lss (did you mean ls?)');
});

test('no two options of one command share a name', () => {
  for (const { command } of COMMANDS) {
    const names = OPTIONS.filter((o) => o.commands.includes(command)).map((o) => o.name);
    expect(names).toEqual([...new Set(names)]);
  }
});

/** The Usage block of --help, each synopsis (a line and its continuation lines) with the commands it is of. */
function synopses(): { commands: readonly Command[]; text: string }[] {
  const block = /\nUsage:\n([\s\S]*?)\n\n/.exec(HELP_TEXT)![1]!;
  const entries: { commands: readonly Command[]; text: string }[] = [];
  for (const line of block.split('\n')) {
    const head = /^ {2}blocktrace (cache \S+|\S+)/.exec(line)?.[1];
    if (head === undefined) entries.at(-1)!.text += line;
    else if (head !== '--help') {
      const commands: readonly Command[] = head === '--replay-file' || head === '--upstream' ? ['harness'] : [head as Command];
      entries.push({ commands, text: line });
    }
  }
  return entries;
}

test("--help's Usage block names each command's options as the table has them, values and all", () => {
  const named = new Map<Command, Set<string>>();
  for (const { commands, text } of synopses()) {
    for (const command of commands) for (const name of text.match(/--[a-z][a-z-]*/g) ?? []) (named.get(command) ?? named.set(command, new Set()).get(command)!).add(name);
  }
  for (const { command } of COMMANDS) {
    const table = OPTIONS.filter((o) => o.commands.includes(command));
    expect({ command, names: [...named.get(command)!].sort() }).toEqual({ command, names: [...new Set(table.map((o) => o.name))].sort() });
    const text = synopses().filter((s) => s.commands.includes(command)).map((s) => s.text).join(' ');
    for (const o of table) expect(text).toContain(o.meta === undefined ? o.name : `${o.name} ${o.meta}`);
  }
});

test('--help describes every option: in its section, or in the section heading', () => {
  const body = HELP_TEXT.slice(HELP_TEXT.indexOf('\n\n', HELP_TEXT.indexOf('Usage:')));
  const undescribed = OPTIONS.filter((o) => !new RegExp(`(^|^ {4}|, |^[a-z].* )${o.name}\\b`, 'm').test(body)).map((o) => `${o.name} (${o.commands.join(', ')})`);
  expect(undescribed).toEqual([]);
});
