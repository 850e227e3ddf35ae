// A process that writes one fixture's replay snapshot into a cache directory again and again, as a
// start writes it (src/cache/snapshot.ts writeSnapshot: a temporary file, then a rename), until it
// is killed: test/cacheFaults.test.ts kills it with SIGKILL at random moments, nearly all of them in
// the middle of a write. The snapshot is read from SOURCE_DIR (a cache a start wrote), so the process
// starts without a replay. Prints `writing` once the first write begins.
// Usage: bun test/helpers/snapshotWriterLoop.ts FIXTURE SOURCE_DIR CACHE_DIR
import { fixtureKey } from '../../src/cache/fixtureKey.ts';
import { readSnapshot, writeSnapshot } from '../../src/cache/snapshot.ts';

const [fixture, source, dir] = process.argv.slice(2) as [string, string, string];
const key = fixtureKey(fixture);
const warn = (line: string): void => void process.stderr.write(`${line}\n`);
const snapshot = readSnapshot(source, key, warn);
if (snapshot === undefined) throw new Error(`no snapshot of ${fixture} in ${source}`);
process.stdout.write('writing\n');
for (;;) writeSnapshot(dir, key, snapshot, warn, fixture);
