// Writes Foundry-style artifacts (out/<Source>.sol/<Name>.json: abi + deployedBytecode.object) for
// the contracts of an anvil corpus chain, so `show --abi` and the web viewer can be tried on the
// shipped fixtures: the ABIs from the corpus' contracts.json, the runtime code as anvil serving the
// chain answers eth_getCode for each deployed address.
//
//   bun test/helpers/fixtureArtifacts.ts CORPUS_CHAIN_DIR FIXTURE OUTDIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { askAnvil } from './recordAnvil.ts';

const [corpusDir, fixture, outDir] = process.argv.slice(2);
if (corpusDir === undefined || fixture === undefined || outDir === undefined) {
  process.stderr.write('usage: bun test/helpers/fixtureArtifacts.ts CORPUS_CHAIN_DIR FIXTURE OUTDIR\n');
  process.exit(2);
}
const contracts = JSON.parse(readFileSync(join(corpusDir, 'contracts.json'), 'utf8')) as {
  deployed: Record<string, { name: string; address: string; source: string }>;
  abis: Record<string, unknown[]>;
};
const deployed = Object.values(contracts.deployed);
const codes = await askAnvil(
  fixture,
  deployed.map((d, i) => ({ name: String(i), body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getCode', params: [d.address, 'latest'] }) })),
);
const written = new Set<string>();
deployed.forEach((d, i) => {
  const code = (JSON.parse(codes[i]!) as { result: string }).result;
  // one artifact per contract name (two Probe deployments share their code)
  if (written.has(d.name) || code === '0x') return;
  written.add(d.name);
  const dir = join(outDir, basename(d.source));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${d.name}.json`), `${JSON.stringify({ abi: contracts.abis[d.name] ?? [], deployedBytecode: { object: code } }, null, 2)}\n`);
});
// ABIs of contracts not deployed at a fixed address (created at run time), as plain ABI files
for (const [name, abi] of Object.entries(contracts.abis)) {
  if (written.has(name)) continue;
  mkdirSync(join(outDir, 'abi'), { recursive: true });
  writeFileSync(join(outDir, 'abi', `${name}.json`), `${JSON.stringify(abi, null, 2)}\n`);
}
process.stderr.write(`wrote ${written.size} artifacts into ${outDir}\n`);
