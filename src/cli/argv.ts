// The one reader of a command line: node:util's parseArgs splits it into tokens (--x v, --x=v, a lone
// -- ending the options; the same on Node, Bun and Deno), and the table of options.ts checks each:
// known to the command, a value where it takes one and none where it takes none, the value read,
// no two options that exclude each other. Its messages are the same for every command:
//   <command>: unknown option --x (did you mean --y?)      <command>: --x needs a value
//   <command>: --x takes no value                         <command>: --a and --b exclude each other
//   <command>: unexpected argument X                       unknown command X (did you mean Y?)
// (no "<command>: " for the harness, which has no command word). Pure: it returns or throws Usage.
import { parseArgs as tokenize } from 'node:util';
import { type Command, type OptionSpec, OPT, optionsOf } from './options.ts';
import { didYouMean } from './suggest.ts';
import { Usage, usage } from './values.ts';

/** An argument as given, in order: a positional (after a lone `--` or not), or an option with its value read. */
export type Item = { readonly positional: string; readonly afterTerminator: boolean } | { readonly spec: OptionSpec; readonly value: unknown };

export class Parsed {
  constructor(
    /** How messages name the command: `check`, `cache ls`; empty for the harness. */
    readonly label: string,
    readonly items: readonly Item[],
  ) {}

  /** The positional arguments, in order, those after a lone `--` included. */
  get positionals(): string[] {
    return this.items.flatMap((i) => ('positional' in i ? [i.positional] : []));
  }

  /** The last value given for an option. */
  last<T>(spec: OptionSpec<T>): T | undefined {
    return this.all(spec).at(-1);
  }

  /** Every value given for an option, in order. */
  all<T>(spec: OptionSpec<T>): T[] {
    return this.items.flatMap((i) => ('spec' in i && i.spec === spec ? [i.value as T] : []));
  }

  has(spec: OptionSpec): boolean {
    return this.items.some((i) => 'spec' in i && i.spec === spec);
  }

  /** The replay cache a command was given: a directory, false for none (--no-cache), or nothing. */
  cache(): { readonly cache?: string | false } {
    const dir = this.last(OPT.cache);
    return this.has(OPT.noCache) ? { cache: false } : dir === undefined ? {} : { cache: dir };
  }

  /** A usage error, named after the command. */
  fail(message: string): never {
    return usage(this.label === '' ? message : `${this.label}: ${message}`);
  }

  /** `unexpected argument X`, with what the command would have made of it when `hint` says. */
  unexpected(argument: string, hint = ''): never {
    return this.fail(`unexpected argument ${argument}${hint}`);
  }
}

/**
 * Reads `argv` (the arguments after the command word) with the options `commands` take. `label`
 * names the command in messages; a function of the first positional argument where that decides it.
 */
export function readArgv(commands: readonly Command[], argv: readonly string[], label: string | ((first: string | undefined) => string)): Parsed {
  const specs = new Map(optionsOf(commands).map((s) => [s.name, s]));
  const { tokens } = tokenize({
    args: [...argv],
    options: Object.fromEntries([...specs.values()].map((s) => [s.name.slice(2), { type: s.meta === undefined ? ('boolean' as const) : ('string' as const) }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((t) => t.kind !== 'option');
  const items: Item[] = [];
  const parsed = new Parsed(typeof label === 'string' ? label : label(first?.kind === 'positional' ? first.value : undefined), items);
  let ended = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') ended = true;
    else if (token.kind === 'positional') items.push({ positional: token.value, afterTerminator: ended });
    else {
      const raw = token.rawName.startsWith('--') ? token.rawName : argv[token.index]!;
      const spec = specs.get(token.rawName as `--${string}`) ?? parsed.fail(`unknown option ${raw}${didYouMean(raw, [...specs.keys()])}`);
      if (spec.meta === undefined && token.value !== undefined) parsed.fail(`${spec.name} takes no value`);
      if (spec.meta !== undefined && (token.value === undefined || token.value === '')) parsed.fail(`${spec.name} needs a value`);
      items.push({ spec, value: spec.read(token.value ?? '') });
    }
  }
  for (const item of items) {
    if (!('spec' in item)) continue;
    const other = item.spec.excludes.find((name) => items.some((i) => 'spec' in i && i.spec.name === name));
    if (other !== undefined) parsed.fail(`${[item.spec.name, other].sort().join(' and ')} exclude each other`);
  }
  return parsed;
}

/** The options object a command makes, or its usage error as a value. */
export function catchUsage<T>(make: () => T): T | { readonly kind: 'usage'; readonly message: string } {
  try {
    return make();
  } catch (err) {
    if (err instanceof Usage) return { kind: 'usage', message: err.message };
    throw err;
  }
}

/** `unknown command X (did you mean Y?)`: a command word, or a subcommand of `label`. */
export function unknownCommand(label: string, word: string, known: readonly string[]): never {
  return new Parsed(label, []).fail(`unknown command ${word}${didYouMean(word, known)}`);
}
