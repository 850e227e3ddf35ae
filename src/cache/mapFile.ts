// A file's bytes for reading only: mapped under Bun (Bun.mmap, private), read elsewhere (Deno, Node).
// A mapping's pages come from the page cache as they are touched instead of being copied into fresh
// memory first, whose first touches are most of a read's cost, and which the checksum and the
// decoding would then touch again. The files mapped here
// are never changed in place while mapped: a snapshot is replaced by rename and removed by unlink,
// which leave a mapped file as it was; a fixture is not written by blocktrace at all.
import { readFileSync, statSync } from 'node:fs';

type Mapper = { mmap(path: string, options: { shared: boolean }): Uint8Array };

export function mapFile(path: string): Uint8Array {
  const bun = (globalThis as { Bun?: Mapper }).Bun;
  // an empty file cannot be mapped; read, it gives the same empty bytes
  if (bun !== undefined && statSync(path).size > 0) {
    try {
      return bun.mmap(path, { shared: false });
    } catch {
      // Bun opens the file for writing to map it, even privately: a file this user may only read
      // (a fixture of another user's, a read-only mount) is read instead
    }
  }
  return readFileSync(path);
}
