#!/usr/bin/env bun
// The entry: parses argv, loads the fixture, starts a face, owns the exit status.
// Data goes to stdout (harness answers only); everything else goes to stderr.
import { resolve } from 'node:path';
import { parseArgs, HELP_TEXT, type CliOptions } from './cli/args.ts';
import { replayRequests } from './cli/replayFile.ts';
import { FixtureError } from './errors/fixtureError.ts';
import { loadChain } from './replay/loadChain.ts';
import type { ChainView } from './replay/chainView.ts';
import { createContext } from './rpc/context.ts';
import { createApp } from './server/app.ts';

const DEFAULT_FIXTURE = resolve(import.meta.dir, '..', 'golden/fixtures/prague-devnet/fixture.json');

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** One line, never a stack trace: the fixture is the user's input, not our defect. */
async function load(path: string): Promise<ChainView | undefined> {
  try {
    return await loadChain(path);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const oneLine = message.split('\n')[0]!.trim();
    log(err instanceof FixtureError ? `blocktrace: ${oneLine}` : `blocktrace: cannot load fixture ${path}: ${oneLine}`);
    return undefined;
  }
}

function summary(chain: ChainView): string {
  const txs = (() => {
    let n = 0;
    for (let i = 0n; i <= chain.head.number; i++) n += chain.blockByNumber(i)?.block.transactions.length ?? 0;
    return n;
  })();
  return `chain ${chain.label}: chainId ${chain.chainId}, blocks 0..${chain.head.number}, ${txs} transactions`;
}

async function serve(options: Extract<CliOptions, { kind: 'serve' }>): Promise<number> {
  const fixture = options.fixture ?? DEFAULT_FIXTURE;
  const chain = await load(fixture);
  if (chain === undefined) return 2;
  const ctx = createContext(chain, { maxBatch: options.maxBatch, log });
  const app = createApp({ ctx, maxBody: options.maxBody });
  try {
    app.listen({
      hostname: options.host,
      port: options.port,
      // let the app answer oversized bodies itself (as JSON-RPC), Bun only stops the absurd
      maxRequestBodySize: options.maxBody * 2 + 65536,
    });
  } catch (err) {
    log(`blocktrace: cannot listen on ${options.host}:${options.port}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
  const server = app.server!;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  log(`blocktrace listening on http://${shownHost}:${server.port}/`);
  log(summary(chain));
  return new Promise((done) => {
    const stop = (signal: string): void => {
      log(`blocktrace: ${signal}, shutting down`);
      // close open keep-alive connections too, so the process ends promptly
      void app.stop(true).then(() => done(0));
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

async function replay(options: Extract<CliOptions, { kind: 'replay' }>): Promise<number> {
  const chain = await load(options.fixture);
  if (chain === undefined) return 2;
  const ctx = createContext(chain, { maxBatch: options.maxBatch, log });
  await replayRequests(ctx, options.requests, { stdin: process.stdin, stdout: process.stdout });
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const options = parseArgs(argv);
  switch (options.kind) {
    case 'help':
      process.stdout.write(HELP_TEXT);
      return 0;
    case 'usage':
      log(`blocktrace: ${options.message} (see blocktrace --help)`);
      return 2;
    case 'serve':
      return serve(options);
    case 'replay':
      return replay(options);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // let stdout drain instead of process.exit(): the harness's last lines must not be lost
    process.exitCode = code;
  },
  (err: unknown) => {
    log(`blocktrace: unexpected failure: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
