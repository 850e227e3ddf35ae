// The file side of `check --update`: rewriting the response file of a failing case with our answer.
// Only the pairs `record` writes are the user's to update; `.io` files and arrays are other clients'
// recordings and are never rewritten. Each file is replaced whole (temporary file + rename), so an
// update stopped at any moment leaves every golden as it was or as it is meant to be; and every new
// text is written before the first rename, so one that cannot be written (a full disk) leaves them all as they were.
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

/** One response file to rewrite, and the answer it gets (undefined: no answer). */
export interface Rewrite {
  readonly file: string;
  readonly answer: string | undefined;
}

/**
 * Replaces the response files with their answers, each in its current form, all or none: every new
 * text is first written whole to a temporary file beside its file (a full disk fails here, before
 * any golden is touched), then each is renamed over its file, which takes no space. The file's mode
 * (and, run as root, its owner) is kept, and a symbolic link is followed rather than replaced.
 * Throws GoldenError, leaving no temporary file behind and, when it fails while writing, every
 * golden as it was.
 */
export function rewriteResponses(rewrites: readonly Rewrite[]): void {
  const ready: { temp: string; target: string; file: string }[] = [];
  try {
    for (const { file, answer } of rewrites) ready.push({ ...writeAside(file, answer), file });
  } catch (err) {
    for (const { temp } of ready) removeQuietly(temp);
    throw err;
  }
  for (let i = 0; i < ready.length; i++) {
    const { temp, target, file } = ready[i]!;
    try {
      renameSync(temp, target);
    } catch (err) {
      for (const later of ready.slice(i)) removeQuietly(later.temp);
      throw new GoldenError(`cannot update ${file}: ${reason(err)}`);
    }
  }
}

/** The new text of `file` in a temporary file beside it (its real path), with the file's mode and owner. */
function writeAside(file: string, answer: string | undefined): { temp: string; target: string } {
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
  } catch (err) {
    if (created) removeQuietly(temp);
    throw new GoldenError(`cannot update ${file}: ${reason(err)}`);
  }
  return { temp, target };
}

function removeQuietly(temp: string): void {
  try {
    unlinkSync(temp);
  } catch {
    // the error that matters is the one thrown; a dot file is passed over by check's walk
  }
}
