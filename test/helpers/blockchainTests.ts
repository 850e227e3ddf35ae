// Loads and traces ethereum/tests blockchain-test files in this process: every test of every file
// given (files or directories), each block through callTracer, prestateTracer (plain and diff) and
// trace_block. Reports tests that do not load and answers that are errors. Not part of `npm test`:
// a tool to run a checkout of ethereum/tests through blocktrace.
//
//   bun test/helpers/blockchainTests.ts PATH... [--verbose]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FixtureChain } from '../../src/replay/chain.ts';
import { readFixture } from '../../src/fixture/detect.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const TRACES = [
  { method: 'debug_traceBlockByNumber', config: { tracer: 'callTracer' } },
  { method: 'debug_traceBlockByNumber', config: { tracer: 'prestateTracer' } },
  { method: 'debug_traceBlockByNumber', config: { tracer: 'prestateTracer', tracerConfig: { diffMode: true } } },
  { method: 'trace_block', config: undefined },
];

export interface Outcome {
  readonly test: string;
  readonly problem: string | undefined;
}

/** Loads one test and traces each of its blocks; `problem` says what went wrong, if anything. */
export async function runTest(file: string, name: string): Promise<Outcome> {
  const test = `${file}#${name}`;
  let chain: FixtureChain;
  try {
    chain = await FixtureChain.load(readFixture(test));
  } catch (error) {
    return { test, problem: `load: ${(error as Error).message.split('\n')[0]}` };
  }
  const ctx = createContext(chain, { cacheResults: false, log: () => {} });
  for (let n = chain.genesis.number + 1n; n <= chain.head.number; n++) {
    for (const t of TRACES) {
      const params = t.config === undefined ? [`0x${n.toString(16)}`] : [`0x${n.toString(16)}`, t.config];
      const answer = (await dispatch(JSON.stringify({ jsonrpc: '2.0', id: 1, method: t.method, params }), ctx)) ?? '';
      if (!answer.includes('"result"')) return { test, problem: `block ${n} ${t.method} ${JSON.stringify(t.config ?? {})}: ${answer.slice(0, 200)}` };
    }
  }
  return { test, problem: undefined };
}

function* jsonFiles(path: string): Generator<string> {
  if (statSync(path).isDirectory()) {
    for (const entry of readdirSync(path).sort()) yield* jsonFiles(join(path, entry));
  } else if (path.endsWith('.json')) {
    yield path;
  }
}

if (import.meta.main) {
  const verbose = process.argv.includes('--verbose');
  let passed = 0;
  let failed = 0;
  for (const root of process.argv.slice(2).filter((a) => a !== '--verbose')) {
    for (const file of jsonFiles(root)) {
      const names = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object);
      for (const name of names) {
        const outcome = await runTest(file, name);
        if (outcome.problem === undefined) {
          passed++;
          if (verbose) process.stdout.write(`ok   ${outcome.test}\n`);
        } else {
          failed++;
          process.stdout.write(`FAIL ${outcome.test}: ${outcome.problem}\n`);
        }
      }
    }
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
}
