// Hardhat 2's immutables. Its artifact (artifacts/contracts/X.sol/X.json, `hh-sol-artifact-1`) has
// no immutableReferences, so a contract with immutables would match no runtime code; the compiler
// output holding them is the build-info (artifacts/build-info/<id>.json, `hh-sol-build-info-1`:
// {id, solcVersion, solcLongVersion, input, output}) that the X.dbg.json beside the artifact names
// by a path relative to itself. One build-info serves every contract of a compilation and weighs
// megabytes, so each is read once and only its immutable references are kept.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

type Ranges = readonly { start: number; length: number }[];

interface BuildInfoJson {
  output?: { contracts?: Record<string, Record<string, { evm?: { deployedBytecode?: { immutableReferences?: Record<string, Ranges> } } }>> };
}

export class BuildInfos {
  /** Build-info path → `source\ncontract` → its immutables' byte ranges (undefined: unreadable). */
  private readonly read = new Map<string, Map<string, Ranges> | undefined>();

  /** The immutables of the Hardhat artifact at `artifactPath` (`sourceName`, `contractName`), from the build-info its .dbg.json names; undefined when either cannot be read. */
  immutables(artifactPath: string, sourceName: string, contractName: string): Ranges | undefined {
    const dbgPath = join(dirname(artifactPath), `${basename(artifactPath, '.json')}.dbg.json`);
    let buildInfo: unknown;
    try {
      buildInfo = (JSON.parse(readFileSync(dbgPath, 'utf8')) as { buildInfo?: unknown }).buildInfo;
    } catch {
      return undefined; // no .dbg.json (copied without it): the artifact is still read, unnamed when it has immutables
    }
    if (typeof buildInfo !== 'string') return undefined;
    const path = resolve(dirname(dbgPath), buildInfo);
    if (!this.read.has(path)) this.read.set(path, immutablesOf(path));
    return this.read.get(path)?.get(`${sourceName}\n${contractName}`);
  }
}

function immutablesOf(path: string): Map<string, Ranges> | undefined {
  let json: BuildInfoJson;
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as BuildInfoJson;
  } catch {
    return undefined;
  }
  const out = new Map<string, Ranges>();
  for (const [source, contracts] of Object.entries(json.output?.contracts ?? {})) {
    for (const [name, contract] of Object.entries(contracts)) {
      const refs = contract.evm?.deployedBytecode?.immutableReferences;
      if (refs !== undefined) out.set(`${source}\n${name}`, Object.values(refs).flat());
    }
  }
  return out;
}
