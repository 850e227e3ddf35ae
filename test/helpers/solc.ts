// Compiles the vault scenario's contracts (test/contracts/vault/*.sol) with the solc npm package
// (the pinned devDependency, solc-js 0.8.30: standard JSON, optimizer on, evmVersion cancun) once per
// process, and writes Foundry-style artifacts, OUT/Name.sol/Name.json = {abi, bytecode: {object},
// deployedBytecode: {object, immutableReferences}}, which src/abi/artifacts.ts reads, so that
// `blocktrace show … --abi OUT` and `check … --abi OUT` name and decode the contracts. Loading and
// running the compiler takes about a second; the promise is kept, so a test file pays it once.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

export const VAULT_SOURCES = join(import.meta.dir, '../contracts/vault');

export type VaultContractName = 'Token' | 'Vault' | 'Receipt';

export interface CompiledContract {
  /** The source file it comes from, `Vault.sol`. */
  readonly source: string;
  readonly abi: Abi;
  /** Creation code (constructor arguments go after it). */
  readonly bytecode: Hex;
  /** Runtime code as compiled (immutables still zero). */
  readonly deployedBytecode: Hex;
}

export interface VaultArtifacts {
  /** The Foundry-style out directory: give it to `--abi`. */
  readonly outDir: string;
  readonly contracts: Readonly<Record<VaultContractName, CompiledContract>>;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, {
    abi: Abi;
    evm: { bytecode: { object: string }; deployedBytecode: { object: string; immutableReferences?: Record<string, { start: number; length: number }[]> } };
    storageLayout?: unknown;
  }>>;
}

/**
 * Which Vault: `bps`, the sources as they are; `perMille`, the same with one line of `deposit`
 * changed, the fee divided by 1,000 instead of 10,000 (a fee computed differently in one function,
 * the constructor and every other function the same).
 */
export type VaultVariant = 'bps' | 'perMille';

const FEE_LINE = 'uint256 fee = amount * feeBps / 10_000;';
const compiled = new Map<VaultVariant, Promise<VaultArtifacts>>();

/** The scenario's contracts, compiled and written out once per process and variant. */
export function compileVault(variant: VaultVariant = 'bps'): Promise<VaultArtifacts> {
  let artifacts = compiled.get(variant);
  if (artifacts === undefined) compiled.set(variant, (artifacts = compile(variant)));
  return artifacts;
}

function sourceOf(file: string, variant: VaultVariant): string {
  const text = readFileSync(join(VAULT_SOURCES, file), 'utf8');
  if (variant === 'bps' || file !== 'Vault.sol') return text;
  if (!text.includes(FEE_LINE)) throw new Error(`Vault.sol has no line "${FEE_LINE}" to change`);
  return text.replace(FEE_LINE, 'uint256 fee = amount * feeBps / 1_000;');
}

async function compile(variant: VaultVariant): Promise<VaultArtifacts> {
  const solc = (await import('solc')).default;
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(VAULT_SOURCES).filter((f) => f.endsWith('.sol')).sort()) {
    sources[file] = { content: sourceOf(file, variant) };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences', 'storageLayout'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc ${solc.version()}:\n${errors.map((e) => e.formattedMessage).join('\n')}`);

  const outDir = mkdtempSync(join(tmpdir(), 'blocktrace-vault-out-'));
  const contracts: Partial<Record<VaultContractName, CompiledContract>> = {};
  for (const [source, byName] of Object.entries(output.contracts)) {
    for (const [name, c] of Object.entries(byName)) {
      const bytecode = `0x${c.evm.bytecode.object}` as Hex;
      const deployedBytecode = `0x${c.evm.deployedBytecode.object}` as Hex;
      mkdirSync(join(outDir, source), { recursive: true });
      const artifact = {
        abi: c.abi,
        bytecode: { object: bytecode },
        deployedBytecode: { object: deployedBytecode, immutableReferences: c.evm.deployedBytecode.immutableReferences ?? {} },
        // as Foundry writes it with extra_output = ["storageLayout"]: check names the slots it changes
        storageLayout: c.storageLayout,
      };
      writeFileSync(join(outDir, source, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
      contracts[name as VaultContractName] = { source, abi: c.abi, bytecode, deployedBytecode };
    }
  }
  for (const name of ['Token', 'Vault', 'Receipt'] as const) {
    if (contracts[name] === undefined) throw new Error(`solc: no contract ${name} in ${VAULT_SOURCES}`);
  }
  return { outDir, contracts: contracts as Record<VaultContractName, CompiledContract> };
}
