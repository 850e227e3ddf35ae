// `blocktrace capture`: the fixture of a block range of a live node, written to a new file.
import { writeFileSync } from 'node:fs';
import { UpstreamClient } from '../upstream/client.ts';
import { capture } from '../upstream/capture.ts';
import type { CaptureCommand } from './upstreamArgs.ts';

/** Exit status: 0 written; 2 the node, the replay or the file failed (one line on `log`). */
export async function runCapture(options: CaptureCommand, log: (line: string) => void): Promise<number> {
  const { source, from, to, out } = options;
  let captured;
  try {
    captured = await capture(new UpstreamClient(source.url, source.timeoutMs), source.genesis, from, to);
  } catch (err) {
    log(`blocktrace: capture failed: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim()}`);
    return 2;
  }
  try {
    writeFileSync(out, `${JSON.stringify(captured.fixture, null, 1)}\n`, { flag: 'wx' });
  } catch (err) {
    log(`blocktrace: cannot write ${out}: ${(err as NodeJS.ErrnoException).code === 'EEXIST' ? 'the file exists (never overwritten)' : (err as Error).message}`);
    return 2;
  }
  log(`blocktrace: captured blocks ${from}..${to} (${captured.accounts} accounts, ${captured.slots} slots) to ${out}`);
  return 0;
}
