// Deno refuses what its flags do not grant with a NotCapable error (PermissionDenied before Deno 2):
// `Requires net access to "127.0.0.1:8545", run again with the --allow-net flag`. blocktrace says so
// in one line naming the flag and the command to run again, never with Deno's stack.

/** What a blocktrace command may need of Deno (docs/build.md): the flags the line suggests. */
const USUAL_FLAGS = ['--allow-env', '--allow-read', '--allow-net'];

/** `arg` as a shell word. */
const shellWord = (arg: string): string => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`);

/**
 * The line for a refusal of Deno's, or undefined for any other error. `doing` says what was being
 * done ("to listen on 127.0.0.1:8545"); without it, the refused access as Deno names it.
 */
export function denoPermissionLine(err: unknown, doing?: string): string | undefined {
  if (!(err instanceof Error) || (err.name !== 'NotCapable' && err.name !== 'PermissionDenied')) return undefined;
  const flag = /run again with the (--allow-[a-z-]+) flag/.exec(err.message)?.[1];
  if (flag === undefined) return undefined;
  const access = /^Requires (.*? access\b.*?), run again/.exec(err.message)?.[1];
  const flags = USUAL_FLAGS.includes(flag) ? USUAL_FLAGS : [...USUAL_FLAGS, flag];
  const command = ['deno', 'run', ...flags, ...process.argv.slice(1)].map(shellWord).join(' ');
  return `blocktrace: Deno needs ${flag} ${doing ?? `for ${access ?? 'this'}`} (run: ${command})`;
}
