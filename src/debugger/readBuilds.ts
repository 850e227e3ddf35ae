// The builds of `--abi` directories, from each layout as its tool writes it:
// - a compiler input and output in one file: Hardhat 2's build-info (`hh-sol-build-info-1`) and
//   Foundry's (`out/build-info/*.json`, `ethers-rs-sol-build-info-1`, with `--build-info`);
// - Hardhat 3's build-info, its input (`<id>.json`) and output (`<id>.output.json`) side by side;
// - a plain solc standard-JSON output (`{contracts, sources}`) with its input (`{language, sources}`)
//   in the same directory;
// - Foundry artifacts (`out/X.sol/X.json`: bytecode and deployedBytecode with their source maps,
//   `id` the file's source id, `ast.absolutePath` its path), where no build-info covers them: the
//   artifacts of one compiler version are one build, the sources read from the project beside out/.
// A build whose sources cannot be found still names its contracts; its steps then say why.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Abi } from 'viem';
import { jsonFiles, storageOf } from '../abi/artifacts.ts';
import { type Build, type BuildContract, buildFromStandardJson, compiledCode, functionsOf, selectorNames, type SolcInput, type SolcOutput, type SourceFile } from './builds.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined; // not JSON: not a build
  }
}

/** A source's text from the project: `path` against each of `roots`, the first that exists. */
function sourceReader(roots: readonly string[]): (path: string) => string | undefined {
  return (path) => {
    for (const root of roots) {
      const file = resolve(root, path);
      if (existsSync(file) && statSync(file).isFile()) return readFileSync(file, 'utf8');
    }
    return undefined;
  };
}

/** The directories a build's relative source paths may be relative to: where it was found and those above it, up to three. */
function rootsAbove(dir: string): string[] {
  const roots = [dir];
  for (let i = 0; i < 3; i++) roots.push(dirname(roots[roots.length - 1]!));
  return roots;
}

const isOutput = (json: Json): boolean => isObject(json['contracts']) && isObject(json['sources']) && Object.values(json['sources'] as Json).some((s) => isObject(s) && 'id' in s);
const isInput = (json: Json): boolean => typeof json['language'] === 'string' && isObject(json['sources']);

interface FoundryArtifact {
  readonly path: string;
  readonly json: Json;
  readonly version: string;
}

/** Every build under the directories, build-info and standard JSON before bare artifacts (the first that fits a code wins). */
export function readBuilds(dirs: readonly string[]): Build[] {
  const builds: Build[] = [];
  const artifacts: FoundryArtifact[] = [];
  for (const dir of dirs) {
    const files = statSync(dir).isDirectory() ? [...jsonFiles(dir, true)] : [dir];
    const parsed = new Map<string, Json>();
    for (const file of files.sort()) {
      const json = readJson(file);
      if (isObject(json)) parsed.set(file, json);
    }
    for (const [file, json] of parsed) {
      const roots = rootsAbove(dirname(file));
      const read = sourceReader(roots);
      if (typeof json['_format'] === 'string' && /^hh3-sol-build-info-output/.test(json['_format']) && isObject(json['output'])) {
        // Hardhat 3: the input beside it, <id>.json
        const input = parsed.get(file.replace(/\.output\.json$/, '.json'));
        const solcInput = isObject(input?.['input']) ? (input['input'] as SolcInput) : undefined;
        // userSourceNameMap: the user's name → the compiler's (`src/Vault.sol` → `project/src/Vault.sol`)
        const names = isObject(input?.['userSourceNameMap']) ? input['userSourceNameMap'] : {};
        const userNames = new Map(Object.entries(names).flatMap(([user, compiler]) => (typeof compiler === 'string' ? [[compiler, user] as const] : [])));
        builds.push(buildFromStandardJson(file, solcInput, json['output'] as SolcOutput, input === undefined ? undefined : versionOf(input), read, (path) => userNames.get(path) ?? path));
      } else if (isObject(json['output']) && isOutput(json['output'])) {
        // Hardhat 2 and Foundry: input and output in one file
        const input = isObject(json['input']) ? (json['input'] as SolcInput) : undefined;
        builds.push(buildFromStandardJson(file, input, json['output'] as SolcOutput, versionOf(json), read));
      } else if (isOutput(json)) {
        // plain solc: the input is a file of the same directory naming the same sources
        const names = Object.keys(json['sources'] as Json);
        const input = [...parsed].find(([f, j]) => dirname(f) === dirname(file) && isInput(j) && names.every((n) => n in (j['sources'] as Json)))?.[1];
        builds.push(buildFromStandardJson(file, input as SolcInput | undefined, json as SolcOutput, undefined, read));
      } else if (isFoundryArtifact(json)) {
        artifacts.push({ path: file, json, version: artifactVersion(json) });
      }
    }
  }
  const covered = new Set(builds.flatMap((b) => b.contracts.map((c) => contractKey(b.solcVersion, c.file, c.name))));
  builds.push(...artifactBuilds(artifacts.filter((a) => !covered.has(contractKey(a.version, artifactFile(a) ?? '', artifactName(a))))));
  return builds;
}

function versionOf(json: Json): string | undefined {
  const v = json['solcVersion'] ?? json['solcLongVersion'] ?? (isObject(json['input']) ? json['input']['version'] : undefined);
  return typeof v === 'string' ? v : undefined;
}

const contractKey = (version: string | undefined, file: string, name: string): string => `${(version ?? '').split('+')[0]}\0${file}\0${name}`;

function isFoundryArtifact(json: Json): boolean {
  const code = json['deployedBytecode'] ?? json['bytecode'];
  return Array.isArray(json['abi']) && isObject(code) && typeof code['sourceMap'] === 'string';
}

function artifactVersion(json: Json): string {
  const metadata = isObject(json['metadata']) ? json['metadata'] : undefined;
  const compiler = isObject(metadata?.['compiler']) ? metadata['compiler'] : undefined;
  return typeof compiler?.['version'] === 'string' ? compiler['version'].split('+')[0]! : '';
}

/** The artifact's source unit: its compilation target, else its AST's path. */
function artifactFile(a: FoundryArtifact): string | undefined {
  const metadata = isObject(a.json['metadata']) ? a.json['metadata'] : undefined;
  const target = isObject(metadata?.['settings']) && isObject(metadata['settings']['compilationTarget']) ? Object.keys(metadata['settings']['compilationTarget'])[0] : undefined;
  const ast = isObject(a.json['ast']) ? a.json['ast']['absolutePath'] : undefined;
  return target ?? (typeof ast === 'string' ? ast : undefined);
}

/** The artifact's source id: Foundry's `id`, else the third field of its AST's `src` (`0:1234:3`). */
function artifactSourceId(a: FoundryArtifact): number | undefined {
  if (typeof a.json['id'] === 'number') return a.json['id'];
  const src = isObject(a.json['ast']) ? a.json['ast']['src'] : undefined;
  const id = typeof src === 'string' ? Number(src.split(':')[2]) : Number.NaN;
  return Number.isInteger(id) && id >= 0 ? id : undefined;
}

function artifactName(a: FoundryArtifact): string {
  const metadata = isObject(a.json['metadata']) ? a.json['metadata'] : undefined;
  const target = isObject(metadata?.['settings']) && isObject(metadata['settings']['compilationTarget']) ? Object.values(metadata['settings']['compilationTarget'])[0] : undefined;
  // Foundry writes X.json, or X.0.8.24.json where several versions compiled X
  return typeof target === 'string' ? target : basename(a.path, '.json').split('.')[0]!;
}

/** Foundry artifacts without a build-info: one build per compiler version, source ids from each file's artifact. */
function artifactBuilds(artifacts: readonly FoundryArtifact[]): Build[] {
  const byVersion = new Map<string, FoundryArtifact[]>();
  for (const a of artifacts) byVersion.set(a.version, [...(byVersion.get(a.version) ?? []), a]);
  const builds: Build[] = [];
  for (const [version, list] of byVersion) {
    // out/X.sol/X.json: the project is the directory above out/
    const roots = [...new Set(list.flatMap((a) => rootsAbove(dirname(dirname(a.path)))))];
    const read = sourceReader(roots);
    const sources = new Map<number, SourceFile>();
    const asts: unknown[] = [];
    for (const a of list) {
      const file = artifactFile(a);
      const id = artifactSourceId(a);
      if (file === undefined || id === undefined || sources.has(id)) continue;
      sources.set(id, { id, path: file, content: read(file), generated: false });
      if (isObject(a.json['ast'])) asts.push(a.json['ast']);
    }
    const contracts: BuildContract[] = [];
    const origin = `${dirname(dirname(list[0]!.path))} (solc ${version || 'of unknown version'}, no build-info)`;
    const settings = (a: FoundryArtifact): Json | undefined => (isObject(a.json['metadata']) && isObject(a.json['metadata']['settings']) ? a.json['metadata']['settings'] : undefined);
    const viaIR = list.some((a) => settings(a)?.['viaIR'] === true);
    const build: Build = { origin, solcVersion: version || undefined, viaIR, sources, contracts, functions: functionsOf(asts) };
    for (const a of list) {
      const code = (key: string): ReturnType<typeof compiledCode> => (isObject(a.json[key]) ? compiledCode(a.json[key] as Parameters<typeof compiledCode>[0]) : undefined);
      contracts.push({
        name: artifactName(a), file: artifactFile(a) ?? '', abi: a.json['abi'] as Abi, selectors: selectorNames(a.json['methodIdentifiers']), storage: storageOf(a.json['storageLayout']),
        creation: code('bytecode'), runtime: code('deployedBytecode'), build,
      });
    }
    builds.push(build);
  }
  return builds;
}

/** readBuilds for a command: an Error `cannot read --abi DIR: …` for a directory that cannot be read. */
export function readDebugBuilds(dirs: readonly string[]): Build[] {
  for (const dir of dirs) {
    try {
      statSync(dir);
    } catch (err) {
      throw new Error(`cannot read --abi ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  return readBuilds(dirs);
}
