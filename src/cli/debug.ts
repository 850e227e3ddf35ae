// The `debug` command: read the --abi builds, load the chain (or connect upstream), replay the
// transaction with its steps, then print them as JSON (--json) or open the terminal UI. Exit 0
// done; 2 the fixture, an --abi path or the transaction cannot be had (one line on stderr).
import { type DebugArtifacts as Artifacts, DebugError } from '../debugger/debugTrace.ts';
import type { DebugCommand } from './debugArgs.ts';
import type { ShowIo } from './show.ts';

export interface DebugIo extends ShowIo {
  readonly stdin: NodeJS.ReadStream;
}

export async function runDebug(options: DebugCommand, io: DebugIo): Promise<number> {
  const { readDebugBuilds } = await import('../debugger/readBuilds.ts');
  const { DebugArtifacts, debugTransaction } = await import('../debugger/debugTrace.ts');
  let artifacts: Artifacts;
  try {
    artifacts = new DebugArtifacts(readDebugBuilds(options.abiDirs));
  } catch (err) {
    io.log(`blocktrace: ${(err as Error).message}`);
    return 2;
  }
  if (options.abiDirs.length > 0 && artifacts.builds.length === 0) {
    io.log(`blocktrace: no compiler output with source maps under ${options.abiDirs.join(', ')} (Foundry out/, Hardhat artifacts/ with build-info/, solc standard JSON): steps stay at opcode level`);
  }
  const source = await io.open(options.upstream, options.fixture, options.cache);
  if (source === undefined) return 2;
  let trace;
  try {
    trace = await debugTransaction(source.chain, Buffer.from(options.target.slice(2), 'hex'), artifacts);
  } catch (err) {
    if (!(err instanceof DebugError)) throw err;
    io.log(`blocktrace: ${err.message}`);
    return 2;
  }
  const { unmappedNotes, writeStepsJson } = await import('../debugger/stepsJson.ts');
  for (const note of unmappedNotes(trace)) io.log(`blocktrace: no source for ${note}`);
  if (options.json) {
    writeStepsJson(trace, options, (text) => io.stdout.write(text));
    return 0;
  }
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    io.log('blocktrace: the debugger\'s terminal UI needs a terminal (stdin and stdout); --json prints the steps instead');
    return 2;
  }
  return (await import('../debugger/tui/terminal.ts')).runTerminal(trace, source.chain, { stdin: io.stdin, stdout: io.stdout as NodeJS.WriteStream, env: io.env });
}
