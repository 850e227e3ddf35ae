// Recorded answers of real clients, byte for byte: go-ethereum's error exchanges and
// eth_getBlockByNumber answers (execution-apis) and anvil's trace_block parameter errors.
// Read and compared by `blocktrace check`'s own code (src/golden/), one test per exchange.
import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readGolden } from '../../src/golden/layouts.ts';
import { checkExchange } from '../../src/golden/run.ts';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const EXAPI = join(GOLDEN, 'execution-apis/tests');
const ANVIL_ERRORS = join(GOLDEN, 'anvil-errors');
const PRAGUE = join(GOLDEN, 'fixtures/prague-devnet/fixture.json');

describe('execution-apis recordings (go-ethereum)', async () => {
  const ctx = createContext(await loadChain(EXAPI), { log: () => {} });
  const dirs = readdirSync(EXAPI, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  test('the copied recordings are all here', () => {
    // the tracing ones; test/golden/archiveReads.test.ts counts those of the other eth_* reads
    expect(dirs).toEqual(expect.arrayContaining(['debug_traceBlockByHash', 'debug_traceBlockByNumber', 'debug_traceTransaction', 'eth_getBlockByNumber']));
  });
  const { exchanges } = readGolden(EXAPI);
  test('every .io file is read (a file of several exchanges gives NAME#1, NAME#2, …)', () => {
    const files = dirs.flatMap((dir) => readdirSync(join(EXAPI, dir)).map((f) => `${dir}/${f.replace(/\.io$/, '')}`));
    expect([...new Set(exchanges.map((e) => e.name.replace(/#\d+$/, '')))].sort()).toEqual(files.sort());
  });
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(ctx, exchange, 'bytes')).toBeUndefined());
  }
});

describe('anvil trace_block and trace_filter parameter errors (chain-independent cases)', async () => {
  const ctx = createContext(await loadChain(PRAGUE), { log: () => {} });
  const { exchanges } = readGolden(ANVIL_ERRORS);
  test('the copied cases are all here', () => expect(exchanges.length).toBe(23));
  for (const exchange of exchanges) {
    test(exchange.name, async () => expect(await checkExchange(ctx, exchange, 'bytes')).toBeUndefined());
  }
});
