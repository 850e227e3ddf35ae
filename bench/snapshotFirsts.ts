// First answers after a start from the replay snapshot, as blocktrace normally starts (issue 28):
// a server is started once to write the snapshot, then once per request, each answering that request
// first. anvil's figures are its first answer of the same request after mining (it is not restarted).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBlocktrace } from './blocktrace.ts';
import { timedResult } from './rpc.ts';

export interface SnapshotFirsts {
  /** ms of the first answer of each request, a fresh start from the snapshot for each. */
  readonly firstMs: Map<string, number>;
}

export async function snapshotFirsts(command: readonly string[], fixture: string, cwd: string, bodies: readonly string[]): Promise<SnapshotFirsts> {
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-bench-snap-'));
  const options = ['--cache', dir];
  try {
    const writer = await startBlocktrace(command, fixture, cwd, 'blocktrace-snapshot-writer', options);
    for (let waited = 0; !readdirSync(dir).some((f) => f.endsWith('.snap')) && waited < 60_000; waited += 20) await Bun.sleep(20);
    await writer.child.stop();
    const firstMs = new Map<string, number>();
    for (const body of bodies) {
      const server = await startBlocktrace(command, fixture, cwd, 'blocktrace-from-snapshot', options);
      try {
        firstMs.set(body, (await timedResult(server.url, body)).ms);
      } finally {
        await server.child.stop();
      }
    }
    return { firstMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
