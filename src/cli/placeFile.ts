// A file written aside (a temporary dot file beside its name) put under its name only if no file has
// it: a hard link, which fails with EEXIST where the name is taken, then the temporary name removed
// by the caller; where the file system has no hard links, a rename after a look. record and capture
// write their files this way, so a file is whole or absent whatever stops them.
import { existsSync, linkSync, renameSync } from 'node:fs';

const NO_LINKS = ['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP'];

/** `temp` under the name `file`; throws (code EEXIST) when `file` exists. */
export function placeNew(temp: string, file: string): void {
  try {
    linkSync(temp, file);
  } catch (err) {
    if (!NO_LINKS.includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    if (existsSync(file)) throw Object.assign(new Error(`${file} exists`), { code: 'EEXIST' });
    renameSync(temp, file);
  }
}
