// The layouts readBuilds knows that golden/debugger does not ship as a tool wrote them: Hardhat 3's
// split build-info, made here from the scenario's own solc input and output in HH3's documented shape
// (`hh3-sol-build-info-1` with `userSourceNameMap`, `hh3-sol-build-info-output-1` beside it).
import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBuilds } from './readBuilds.ts';

const SOLC = join(import.meta.dir, '../../golden/debugger/solc');

test('Hardhat 3 build-info: input and output in two files, sources named as the user knows them', () => {
  const input = JSON.parse(readFileSync(join(SOLC, 'input.json'), 'utf8'));
  const output = JSON.parse(readFileSync(join(SOLC, 'output.json'), 'utf8'));
  const prefixed = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).map(([k, v]) => [`project/${k}`, v]));
  const dir = mkdtempSync(join(tmpdir(), 'blocktrace-hh3-'));
  try {
    mkdirSync(join(dir, 'artifacts/build-info'), { recursive: true });
    const id = 'solc-0_8_30-0123456789abcdef';
    writeFileSync(join(dir, `artifacts/build-info/${id}.json`), JSON.stringify({
      _format: 'hh3-sol-build-info-1', id, solcVersion: '0.8.30', solcLongVersion: '0.8.30+commit.73712a01',
      userSourceNameMap: Object.fromEntries(Object.keys(input.sources).map((k) => [k, `project/${k}`])),
      input: { ...input, sources: prefixed(input.sources) },
    }));
    writeFileSync(join(dir, `artifacts/build-info/${id}.output.json`), JSON.stringify({
      _format: 'hh3-sol-build-info-output-1', id, output: { ...output, sources: prefixed(output.sources), contracts: prefixed(output.contracts) },
    }));
    const [build, ...rest] = readBuilds([join(dir, 'artifacts')]);
    expect(rest).toEqual([]);
    expect(build!.solcVersion).toBe('0.8.30');
    expect([...build!.sources.values()].map((s) => [s.path, s.content === input.sources[s.path]?.content])).toEqual(Object.keys(input.sources).map((k) => [k, true]));
    const vault = build!.contracts.find((c) => c.name === 'Vault')!;
    expect(vault.file).toBe('src/Vault.sol');
    expect(vault.runtime!.sourceMap).toBe(output.contracts['src/Vault.sol'].Vault.evm.deployedBytecode.sourceMap);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
