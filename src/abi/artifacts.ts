// Reads ABIs from a directory: Foundry artifacts (out/**/X.json: {abi, bytecode: {object},
// deployedBytecode: {object, immutableReferences}}), Hardhat artifacts (artifacts/**/X.json:
// {contractName, abi, bytecode, deployedBytecode}) and plain ABI files (a JSON array). Anything
// else is skipped; a directory that cannot be read is the caller's error (one line).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Abi } from 'viem';
import type { Artifact, StorageVariable } from './types.ts';

export type { Artifact };

function* jsonFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      // Hardhat's build-info holds whole compiler outputs, not artifacts
      if (entry.name === 'build-info' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      yield* jsonFiles(path);
    } else if (entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json')) {
      yield path;
    }
  }
}

const isAbi = (value: unknown): value is Abi => Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'type' in item);

/** The hex of a bytecode field: Hardhat's string, or Foundry's and solc's `{object}`; without 0x, lower case. */
function hexOf(field: unknown): string | undefined {
  const hex = typeof field === 'string' ? field : typeof field === 'object' && field !== null ? (field as { object?: unknown }).object : undefined;
  const plain = typeof hex === 'string' ? hex.replace(/^0x/, '').toLowerCase() : '';
  return plain === '' ? undefined : plain;
}

function artifactOf(path: string, json: unknown): Artifact | undefined {
  const fallback = basename(path, '.json');
  if (isAbi(json)) return json.length > 0 ? { name: fallback, abi: json } : undefined;
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  if (!isAbi(o['abi']) || o['abi'].length === 0) return undefined;
  const name = typeof o['contractName'] === 'string' ? o['contractName'] : fallback;
  const deployed = o['deployedBytecode'];
  let code: string | undefined;
  let immutables: { start: number; length: number }[] | undefined;
  if (typeof deployed === 'string') code = deployed;
  else if (typeof deployed === 'object' && deployed !== null) {
    const d = deployed as Record<string, unknown>;
    if (typeof d['object'] === 'string') code = d['object'];
    const refs = d['immutableReferences'];
    if (typeof refs === 'object' && refs !== null) immutables = Object.values(refs as Record<string, { start: number; length: number }[]>).flat();
  }
  code = code?.replace(/^0x/, '').toLowerCase();
  const creation = hexOf(o['bytecode']);
  const storage = storageOf(o['storageLayout']);
  return { name, abi: o['abi'], ...(code ? { deployedCode: code } : {}), ...(immutables ? { immutables } : {}), ...(creation !== undefined ? { creationCode: creation } : {}), ...(storage ? { storage } : {}) };
}

interface SolcType {
  readonly label?: string;
  readonly encoding?: string;
  readonly value?: string;
}

/** solc's storageLayout (`{storage: [{label, slot, type}], types: {…}}`), as Foundry writes it with `extra_output = ["storageLayout"]`. */
function storageOf(layout: unknown): StorageVariable[] | undefined {
  if (typeof layout !== 'object' || layout === null) return undefined;
  const { storage, types } = layout as { storage?: unknown; types?: Record<string, SolcType> | null };
  if (!Array.isArray(storage)) return undefined;
  const out: StorageVariable[] = [];
  for (const item of storage as { label?: unknown; slot?: unknown; type?: unknown }[]) {
    if (typeof item.label !== 'string' || typeof item.slot !== 'string' || !/^\d+$/.test(item.slot) || typeof item.type !== 'string') continue;
    let depth = 0;
    let type = types?.[item.type];
    while (type?.encoding === 'mapping' && type.value !== undefined && depth < 8) {
      depth++;
      type = types?.[type.value];
    }
    out.push({ label: item.label, slot: BigInt(item.slot), type: types?.[item.type]?.label ?? item.type, mappingDepth: depth, valueType: type?.label ?? '' });
  }
  return out.length > 0 ? out : undefined;
}

/** Every artifact under `dir` (a file is read alone). */
export function readArtifacts(dir: string): Artifact[] {
  const files = statSync(dir).isDirectory() ? [...jsonFiles(dir)] : [dir];
  const out: Artifact[] = [];
  for (const file of files.sort()) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // not JSON: not an artifact
    }
    const artifact = artifactOf(file, json);
    if (artifact !== undefined) out.push(artifact);
  }
  return out;
}

/** Every artifact of the `--abi` directories; throws an Error `cannot read --abi DIR: …` for one that cannot be read. */
export function readAbiDirs(dirs: readonly string[]): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const dir of dirs) {
    try {
      artifacts.push(...readArtifacts(dir));
    } catch (err) {
      throw new Error(`cannot read --abi ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message.split('\n')[0]}`);
    }
  }
  return artifacts;
}

/** readAbiDirs for a command: undefined, after one line through `log`, when a directory cannot be read. */
export function readAbiDirsOr(dirs: readonly string[], log: (line: string) => void): Artifact[] | undefined {
  try {
    return readAbiDirs(dirs);
  } catch (err) {
    log(`blocktrace: ${(err as Error).message}`);
    return undefined;
  }
}

