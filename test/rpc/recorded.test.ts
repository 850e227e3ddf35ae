// Recorded answers of real clients, byte for byte: go-ethereum's error exchanges and
// eth_getBlockByNumber answers (execution-apis) and anvil's trace_block parameter errors.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadChain } from '../../src/replay/loadChain.ts';
import { createContext } from '../../src/rpc/context.ts';
import { dispatch } from '../../src/rpc/dispatch.ts';

const GOLDEN = join(import.meta.dir, '../../golden');
const EXAPI = join(GOLDEN, 'execution-apis/tests');
const ANVIL_ERRORS = join(GOLDEN, 'anvil-errors');
const PRAGUE = join(GOLDEN, 'fixtures/prague-devnet/fixture.json');

/** `.io` exchanges: `>> request` / `<< response` (response trimmed, as rpctestgen stores it). */
function exchanges(path: string): { request: string; response: string }[] {
  const out: { request: string; response: string }[] = [];
  let request: string | undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('>> ')) request = line.slice(3);
    else if (line.startsWith('<< ') && request !== undefined) out.push({ request, response: line.slice(3) });
  }
  return out;
}

describe('execution-apis recordings (go-ethereum)', async () => {
  const ctx = createContext(await loadChain(EXAPI), { log: () => {} });
  const dirs = readdirSync(EXAPI, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  test('the copied recordings are all here', () => {
    expect(dirs).toEqual(['debug_traceBlockByHash', 'debug_traceBlockByNumber', 'debug_traceTransaction', 'eth_getBlockByNumber']);
  });
  for (const dir of dirs) {
    for (const file of readdirSync(join(EXAPI, dir)).sort()) {
      for (const [i, { request, response }] of exchanges(join(EXAPI, dir, file)).entries()) {
        test(`${dir}/${file}#${i + 1}`, async () => {
          expect(await dispatch(request, ctx)).toBe(response);
        });
      }
    }
  }
});

describe('anvil trace_block parameter errors (chain-independent cases)', async () => {
  const ctx = createContext(await loadChain(PRAGUE), { log: () => {} });
  const cases = readdirSync(ANVIL_ERRORS).filter((f) => f.endsWith('.request.json')).sort();
  test('the copied cases are all here', () => expect(cases.length).toBe(15));
  for (const file of cases) {
    test(file.replace('.request.json', ''), async () => {
      const request = readFileSync(join(ANVIL_ERRORS, file), 'utf8');
      const response = readFileSync(join(ANVIL_ERRORS, file.replace('.request.json', '.response.json')), 'utf8');
      expect(await dispatch(request, ctx)).toBe(response);
    });
  }
});
