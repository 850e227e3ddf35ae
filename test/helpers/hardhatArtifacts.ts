// The vault scenario's contracts as Hardhat 2 lays out its artifacts, written from the solc-js
// output test/helpers/solc.ts already made (Hardhat itself would take some 8 s to compile them).
// The layout is hardhat 2.29.1's, as `hardhat compile` wrote it for these sources (solc 0.8.30 as
// solc-js through the TASK_COMPILE_SOLIDITY_GET_SOLC_BUILD override, the compiler download being
// impossible here):
//   artifacts/contracts/Vault.sol/Vault.json      {_format: "hh-sol-artifact-1", contractName, sourceName,
//                                                  abi, bytecode, deployedBytecode (0x strings),
//                                                  linkReferences, deployedLinkReferences}
//   artifacts/contracts/Vault.sol/Vault.dbg.json  {_format: "hh-sol-dbg-1", buildInfo: "../../build-info/<id>.json"}
//   artifacts/build-info/<id>.json                {id, _format: "hh-sol-build-info-1", solcVersion,
//                                                  solcLongVersion, input, output: {sources, contracts}}
// The artifact has no immutableReferences: only the build-info's output has them.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VAULT_SOURCES, type VaultArtifacts } from './solc.ts';

interface FoundryArtifact {
  abi: unknown[];
  bytecode: { object: string };
  deployedBytecode: { object: string; immutableReferences: Record<string, { start: number; length: number }[]> };
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Writes `artifacts/` for the compiled vault contracts under a new temp directory; returns the `artifacts` directory (give it to `--abi`). */
export async function writeHardhatArtifacts(vault: VaultArtifacts): Promise<string> {
  const root = join(mkdtempSync(join(tmpdir(), 'blocktrace-hardhat-')), 'artifacts');
  const solc = (await import('solc')).default;
  const longVersion = solc.version(); // 0.8.30+commit.73712a01.Emscripten.clang
  const files = [...new Set(Object.values(vault.contracts).map((c) => c.source))].sort();
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(files.map((f) => [`contracts/${f}`, { content: readFileSync(join(VAULT_SOURCES, f), 'utf8') }])),
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode', 'evm.deployedBytecode', 'evm.methodIdentifiers', 'metadata'], '': ['ast'] } } },
  };
  const id = createHash('md5').update(JSON.stringify(input)).digest('hex');
  const contracts: Record<string, Record<string, unknown>> = {};
  for (const [name, c] of Object.entries(vault.contracts)) {
    const sourceName = `contracts/${c.source}`;
    const foundry = JSON.parse(readFileSync(join(vault.outDir, c.source, `${name}.json`), 'utf8')) as FoundryArtifact;
    const dir = join(root, 'contracts', c.source);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${name}.json`),
      json({ _format: 'hh-sol-artifact-1', contractName: name, sourceName, abi: c.abi, bytecode: c.bytecode, deployedBytecode: c.deployedBytecode, linkReferences: {}, deployedLinkReferences: {} }),
    );
    writeFileSync(join(dir, `${name}.dbg.json`), json({ _format: 'hh-sol-dbg-1', buildInfo: `../../build-info/${id}.json` }));
    (contracts[sourceName] ??= {})[name] = {
      abi: c.abi,
      evm: {
        bytecode: { object: c.bytecode.slice(2), linkReferences: {} },
        deployedBytecode: { object: c.deployedBytecode.slice(2), immutableReferences: foundry.deployedBytecode.immutableReferences, linkReferences: {} },
      },
    };
  }
  mkdirSync(join(root, 'build-info'));
  writeFileSync(
    join(root, 'build-info', `${id}.json`),
    JSON.stringify({ id, _format: 'hh-sol-build-info-1', solcVersion: longVersion.split('+')[0], solcLongVersion: longVersion, input, output: { sources: {}, contracts } }),
  );
  return root;
}
