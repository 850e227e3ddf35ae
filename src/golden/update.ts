// The file side of `check --update`: rewriting the response file of a failing case with our answer.
// Only the pairs `record` writes are the user's to update; `.io` files and arrays are other clients'
// recordings and are never rewritten. Each file is replaced whole (temporary file + rename), so an
// update stopped at any moment leaves every golden as it was or as it is meant to be.
import { accessSync, chmodSync, chownSync, closeSync, constants, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GoldenError } from '../errors/goldenError.ts';
import type { Exchange } from './layouts.ts';
import { isPretty, prettyJson } from './pretty.ts';

const reason = (err: unknown): string => (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));

/** Whether `check --update` may rewrite this exchange's recording. */
export const updatable = (exchange: Pick<Exchange, 'layout'>): boolean => exchange.layout === 'pair';

/**
 * Throws a GoldenError naming the first response file that could not be rewritten: the file itself
 * must be writable, and so must its directory (the temporary file and the rename happen there).
 * Called on every file before the first is touched.
 */
export function checkWritable(files: readonly string[]): void {
  for (const file of files) {
    let target: string;
    try {
      target = realpathSync(file);
      accessSync(target, constants.W_OK);
    } catch (err) {
      throw new GoldenError(`cannot update ${file}: ${reason(err)}`);
    }
    try {
      accessSync(dirname(target), constants.W_OK);
    } catch (err) {
      throw new GoldenError(`cannot update ${file}: its directory ${dirname(target)} is not writable (${reason(err)})`);
    }
  }
}

/** The text that replaces a response file: pretty when it is pretty now, else compact; empty for no answer. */
export function responseText(current: string, answer: string | undefined): string {
  if (answer === undefined) return '';
  // an empty file (a notification's) has no form of its own: record's default, pretty
  return current.trim() === '' || isPretty(current) ? prettyJson(answer) : answer;
}

/**
 * Replaces the response file `file` with `answer` in the file's current form, through a temporary
 * file beside it and a rename; the file's mode (and, run as root, its owner) is kept, and a symbolic
 * link is followed rather than replaced. Throws GoldenError, leaving no temporary file behind.
 */
export function rewriteResponse(file: string, answer: string | undefined): void {
  let target: string;
  let current: string;
  let mode: number;
  let owner: { uid: number; gid: number };
  try {
    target = realpathSync(file);
    const stat = statSync(target);
    mode = stat.mode & 0o7777;
    owner = { uid: stat.uid, gid: stat.gid };
    current = readFileSync(target, 'utf8');
  } catch (err) {
    throw new GoldenError(`cannot update ${file}: ${reason(err)}`);
  }
  // a dot file: check's walk passes over one left by a crash it could not clean up
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let created = false;
  try {
    const fd = openSync(temp, 'wx', mode);
    created = true;
    try {
      writeFileSync(fd, responseText(current, answer));
    } finally {
      closeSync(fd);
    }
    chmodSync(temp, mode); // the umask may have taken bits away
    // only root may give a file away; anyone else's rewrite is theirs, as with any editor's save
    if (process.getuid?.() === 0) chownSync(temp, owner.uid, owner.gid);
    renameSync(temp, target);
  } catch (err) {
    if (created) {
      try {
        unlinkSync(temp);
      } catch {
        // the error that matters is the one thrown below; a dot file is passed over by check's walk
      }
    }
    throw new GoldenError(`cannot update ${file}: ${reason(err)}`);
  }
}
