// Reads ABIs from a directory: Foundry artifacts (out/**/X.json: {abi, bytecode: {object},
// deployedBytecode: {object, immutableReferences}, storageLayout?}), Hardhat artifacts
// (artifacts/**/X.json: {_format: "hh-sol-artifact-1", contractName, sourceName, abi, bytecode,
// deployedBytecode}, their immutables from the build-info that X.dbg.json names: src/abi/buildInfo.ts)
// and plain ABI files (a JSON array). Anything else is skipped; a directory that cannot be read is
// the caller's error (one line), one that holds no artifact a warning.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Abi } from 'viem';
import { BuildInfos } from './buildInfo.ts';
import type { Artifact, StorageInside, StorageMember, StorageVariable } from './types.ts';

export type { Artifact };

/**
 * The .json files under `dir` (a .dbg.json is a pointer, not an artifact), node_modules and hidden
 * folders left out. Artifacts skip `build-info` (whole compiler outputs: an artifact's .dbg.json
 * leads to its own); the debugger's builds are read there (`withBuildInfo`).
 */
export function* jsonFiles(dir: string, withBuildInfo = false): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if ((entry.name === 'build-info' && !withBuildInfo) || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      yield* jsonFiles(path, withBuildInfo);
    } else if (entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json')) {
      yield path;
    }
  }
}

const isAbi = (value: unknown): value is Abi => Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'type' in item);

type Ranges = { start: number; length: number }[];

/** The hex of a bytecode field: Hardhat's string, or Foundry's and solc's `{object}`; without 0x, lower case. */
function hexOf(field: unknown): string | undefined {
  const hex = typeof field === 'string' ? field : typeof field === 'object' && field !== null ? (field as { object?: unknown }).object : undefined;
  const plain = typeof hex === 'string' ? hex.replace(/^0x/, '').toLowerCase() : '';
  return plain === '' ? undefined : plain;
}

function artifactOf(path: string, json: unknown, buildInfos: BuildInfos): Artifact | undefined {
  const fallback = basename(path, '.json');
  if (isAbi(json)) return json.length > 0 ? { name: fallback, abi: json } : undefined;
  if (typeof json !== 'object' || json === null) return undefined;
  const o = json as Record<string, unknown>;
  if (!isAbi(o['abi']) || o['abi'].length === 0) return undefined;
  const name = typeof o['contractName'] === 'string' ? o['contractName'] : fallback;
  const deployed = o['deployedBytecode'];
  const code = hexOf(deployed);
  let immutables: readonly { start: number; length: number }[] | undefined;
  const refs = typeof deployed === 'object' && deployed !== null ? (deployed as { immutableReferences?: unknown }).immutableReferences : undefined;
  if (typeof refs === 'object' && refs !== null) immutables = Object.values(refs as Record<string, Ranges>).flat();
  else if (o['_format'] === 'hh-sol-artifact-1' && code !== undefined && typeof o['sourceName'] === 'string') immutables = buildInfos.immutables(path, o['sourceName'], name);
  const creation = hexOf(o['bytecode']);
  const storage = storageOf(o['storageLayout']);
  return {
    name,
    abi: o['abi'],
    ...(code !== undefined ? { deployedCode: code } : {}),
    ...(immutables !== undefined ? { immutables } : {}),
    ...(creation !== undefined ? { creationCode: creation } : {}),
    ...(storage !== undefined ? { storage } : {}),
  };
}

interface SolcType {
  readonly label?: string;
  readonly encoding?: string;
  readonly value?: string;
  readonly base?: string;
  readonly numberOfBytes?: string;
  readonly members?: readonly { label?: unknown; slot?: unknown; type?: unknown }[];
}

/** What lies inside a struct or array type (members, elements), a few levels deep; undefined for other types. */
function insideOf(id: string | undefined, types: Record<string, SolcType> | null | undefined, depth = 0): StorageInside | undefined {
  const type = id === undefined ? undefined : types?.[id];
  if (type === undefined || depth > 4) return undefined;
  if (Array.isArray(type.members)) {
    const members: StorageMember[] = [];
    for (const m of type.members) {
      if (typeof m.label !== 'string' || typeof m.slot !== 'string' || !/^\d+$/.test(m.slot) || typeof m.type !== 'string') continue;
      members.push({ label: m.label, slot: Number(m.slot), type: types?.[m.type]?.label ?? m.type, inside: insideOf(m.type, types, depth + 1) });
    }
    return { kind: 'struct', members };
  }
  const bytes = Number(types?.[type.base ?? '']?.numberOfBytes);
  if (type.base === undefined || !Number.isInteger(bytes) || bytes <= 0) return undefined;
  if (type.encoding === 'dynamic_array') return { kind: 'dynamic', bytes, element: insideOf(type.base, types, depth + 1) };
  // a static array: `t_array(t_uint256)3_storage`, its length in its id
  const length = /\)(\d+)_storage$/.exec(id!)?.[1];
  if (type.encoding === 'inplace' && length !== undefined) return { kind: 'static', bytes, length: Number(length), element: insideOf(type.base, types, depth + 1) };
  return undefined;
}

/** solc's storageLayout (`{storage: [{label, slot, type}], types: {…}}`), as Foundry writes it with `extra_output = ["storageLayout"]`. */
export function storageOf(layout: unknown): StorageVariable[] | undefined {
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
    let value = item.type;
    for (let d = 0; d < depth; d++) value = types?.[value]?.value ?? value;
    const inside = insideOf(value, types);
    out.push({ label: item.label, slot: BigInt(item.slot), type: types?.[item.type]?.label ?? item.type, mappingDepth: depth, valueType: type?.label ?? '', ...(inside !== undefined ? { inside } : {}) });
  }
  return out.length > 0 ? out : undefined;
}

/** Every artifact under `dir` (a file is read alone). */
export function readArtifacts(dir: string): Artifact[] {
  const files = statSync(dir).isDirectory() ? [...jsonFiles(dir)] : [dir];
  const buildInfos = new BuildInfos();
  const out: Artifact[] = [];
  for (const file of files.sort()) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue; // not JSON: not an artifact
    }
    const artifact = artifactOf(file, json, buildInfos);
    if (artifact !== undefined) out.push(artifact);
  }
  return out;
}

/**
 * Every artifact of the `--abi` directories; throws an Error `cannot read --abi DIR: …` for one that
 * cannot be read. A directory with no artifact is one line through `warn` and no error: a wrong path
 * inside a project (`--abi src` for `--abi out`) would otherwise only show as nothing decoded.
 */
export function readAbiDirs(dirs: readonly string[], warn: (line: string) => void): Artifact[] {
  const artifacts: Artifact[] = [];
  for (const dir of dirs) {
    let found: Artifact[];
    try {
      found = readArtifacts(dir);
    } catch (err) {
      throw new Error(`cannot read --abi ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message.split('\n')[0]}`);
    }
    if (found.length === 0) warn(`blocktrace: --abi ${dir}: no artifacts found (expected Foundry out/, Hardhat artifacts/ or ABI .json files)`);
    artifacts.push(...found);
  }
  return artifacts;
}

/** readAbiDirs for a command: undefined, after one line through `log`, when a directory cannot be read; warnings through `log` too. */
export function readAbiDirsOr(dirs: readonly string[], log: (line: string) => void): Artifact[] | undefined {
  try {
    return readAbiDirs(dirs, log);
  } catch (err) {
    log(`blocktrace: ${(err as Error).message}`);
    return undefined;
  }
}
