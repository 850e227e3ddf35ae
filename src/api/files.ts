// A snapshot file is whole or absent: written to a dot file beside it (which check's walk passes
// over) and renamed into place, so a run stopped at any moment leaves no half-written golden.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function writeWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new Error(`cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
