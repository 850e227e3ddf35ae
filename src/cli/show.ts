// The `show` command: load the chain (or connect upstream), read the --abi directories, print the
// tree. Exit 0 printed; 1 the target is not on the chain; 2 the fixture or an --abi path cannot be read.
import { readAbiDirsOr } from '../abi/artifacts.ts';
import { AbiDecoder } from '../abi/decoder.ts';
import { createContext } from '../rpc/context.ts';
import { COLOUR, PLAIN } from '../show/render.ts';
import { show, ShowError } from '../show/show.ts';
import type { ChainSource } from './upstream.ts';
import type { UpstreamSource } from './upstreamArgs.ts';
import type { ShowCommand } from './showArgs.ts';

export interface ShowIo {
  open(upstream: UpstreamSource | undefined, fixture: string | undefined, cache: string | false | undefined): Promise<ChainSource | undefined>;
  log(line: string): void;
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly env: Record<string, string | undefined>;
}

/** Colour only on a terminal, and never with NO_COLOR (https://no-color.org) or TERM=dumb. */
export function wantsColour(io: Pick<ShowIo, 'stdout' | 'env'>): boolean {
  return io.stdout.isTTY === true && (io.env['NO_COLOR'] ?? '') === '' && io.env['TERM'] !== 'dumb';
}

export async function runShow(options: ShowCommand, io: ShowIo): Promise<number> {
  const artifacts = readAbiDirsOr(options.abiDirs, io.log);
  if (artifacts === undefined) return 2;
  const source = await io.open(options.upstream, options.fixture, options.cache);
  if (source === undefined) return 2;
  const ctx = createContext(source.chain, { log: io.log, forward: source.forward });
  try {
    const lines = await show(ctx, options.target, new AbiDecoder(artifacts), wantsColour(io) ? COLOUR : PLAIN);
    io.stdout.write(`${lines.join('\n')}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ShowError) {
      io.log(`blocktrace: ${err.message}`);
      return 1;
    }
    throw err;
  }
}
