import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuildInfos } from './buildInfo.ts';

test('the build-info a .dbg.json names gives the immutables, and is read once for all the artifacts of its compilation', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'blocktrace-buildinfo-'));
  const root = join(tmp, 'artifacts');
  const dir = join(root, 'contracts/Token.sol');
  mkdirSync(dir, { recursive: true });
  mkdirSync(join(root, 'build-info'));
  const refs = (start: number) => ({ evm: { deployedBytecode: { immutableReferences: { '7': [{ start, length: 32 }] } } } });
  writeFileSync(join(root, 'build-info/abc.json'), JSON.stringify({ _format: 'hh-sol-build-info-1', output: { contracts: { 'contracts/Token.sol': { Token: refs(398), Wrapped: refs(12) } } } }));
  for (const name of ['Token', 'Wrapped']) writeFileSync(join(dir, `${name}.dbg.json`), JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: '../../build-info/abc.json' }));
  const infos = new BuildInfos();
  expect(infos.immutables(join(dir, 'Token.json'), 'contracts/Token.sol', 'Token')).toEqual([{ start: 398, length: 32 }]);
  // gone from disk: the second artifact's immutables come from the first reading
  rmSync(join(root, 'build-info/abc.json'));
  expect(infos.immutables(join(dir, 'Wrapped.json'), 'contracts/Token.sol', 'Wrapped')).toEqual([{ start: 12, length: 32 }]);
  // an artifact without its .dbg.json: none known
  expect(infos.immutables(join(dir, 'Other.json'), 'contracts/Token.sol', 'Other')).toBeUndefined();
  rmSync(tmp, { recursive: true, force: true });
});
