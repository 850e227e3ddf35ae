// mapFile: a file Bun cannot map is read instead. Bun opens a file for writing to map it, even
// privately, so a fixture this user may only read was not mapped, its key was not made, and the
// replay cache was silently off for it. Root may write any file it can read, except one being
// executed (ETXTBSY): the running Bun itself stands in for a read-only file.
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { mapFile } from './mapFile.ts';

test('a file that cannot be opened for writing (here the running executable) is read: the same bytes', () => {
  expect(() => Bun.mmap(process.execPath, { shared: false })).toThrow();
  expect(Buffer.from(mapFile(process.execPath)).equals(readFileSync(process.execPath))).toBe(true);
});
