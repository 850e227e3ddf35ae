// `blocktrace capture`: the fixture of a block range of a live node, written to a new file: whole or
// not at all (a temporary dot file beside it, linked under its name once written, never over a file).
import { unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { FixtureError } from '../errors/fixtureError.ts';
import { upstreamGenesis } from '../upstream/chainConfig.ts';
import { UpstreamClient } from '../upstream/client.ts';
import { doubtForks } from '../upstream/replayCheck.ts';
import { capture } from '../upstream/capture.ts';
import { placeNew } from './placeFile.ts';
import type { CaptureCommand } from './upstreamArgs.ts';

/** Exit status: 0 written; 2 the node, the replay or the file failed (one line on `log`). */
export async function runCapture(options: CaptureCommand, log: (line: string) => void): Promise<number> {
  const { source, from, to, out } = options;
  const client = new UpstreamClient(source.url, source.timeoutMs);
  let captured;
  try {
    captured = await capture(client, source.genesis, from, to);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0]!.trim();
    log(`blocktrace: capture failed: ${message}${err instanceof FixtureError ? await forksUsed(client, source.genesis) : ''}`);
    return 2;
  }
  const temp = join(dirname(out), `.${basename(out)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, `${JSON.stringify(captured.fixture, null, 1)}\n`, { flag: 'wx' });
    placeNew(temp, out);
  } catch (err) {
    log(`blocktrace: cannot write ${out}: ${(err as NodeJS.ErrnoException).code === 'EEXIST' ? 'the file exists (never overwritten)' : (err as Error).message.split('\n')[0]}`);
    return 2;
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // never made (the directory cannot be written)
    }
  }
  const edited = captured.editedBlocks === 0 ? '' : `; state edited before ${captured.editedBlocks} block${captured.editedBlocks === 1 ? '' : 's'}`;
  log(`blocktrace: captured blocks ${from}..${to} (${captured.accounts} accounts, ${captured.slots} slots${edited}) to ${out}`);
  return 0;
}

/**
 * The capture's own check failed (its replay disagrees with the node's headers): what the fork
 * schedule rested on, which is the first thing to doubt, as the end of that line.
 */
async function forksUsed(client: UpstreamClient, genesis: string | undefined): Promise<string> {
  try {
    const { source } = await upstreamGenesis(client, BigInt(await client.call<string>('eth_chainId', [])), genesis);
    return `; ${doubtForks(source, genesis !== undefined)}`;
  } catch {
    return '';
  }
}
