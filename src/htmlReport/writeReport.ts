// Where `--report FILE.html` goes: asked before the work (a path that cannot be written is one line
// and exit 2 at once, not after a long check), then written through a temporary file and a rename,
// so an interrupted run leaves no half-written report. The temporary file is a dot file beside the
// report, named with the writer's PID: a run killed mid-write leaves at most that hidden file.
import { accessSync, constants, existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Why `path` cannot take the report; undefined when it can. */
export function reportPathProblem(path: string): string | undefined {
  const full = resolve(path);
  const dir = dirname(full);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return `${path}: no such directory ${dir}`;
  if (existsSync(full) && statSync(full).isDirectory()) return `${path} is a directory`;
  try {
    accessSync(existsSync(full) ? full : dir, constants.W_OK);
  } catch {
    return `${path} cannot be written (permission denied)`;
  }
  return undefined;
}

/** Writes `html` to `path` whole, or throws; returns the absolute path written (for the line that says where). */
export function writeReport(path: string, html: string): string {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, html);
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return resolve(path);
}
