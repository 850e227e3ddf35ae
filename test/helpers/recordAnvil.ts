// Records anvil's own answers as goldens (the NAME.request.json + NAME.response.json layout that
// `blocktrace check` reads): starts the pinned anvil with an anvil corpus chain's recorded args, mines
// the chain into it block by block (test/helpers/anvil.ts), sends each request body as it is and
// writes anvil's response bytes unchanged. Nothing of ours goes into a response file.
//
//   bun test/helpers/recordAnvil.ts FIXTURE REQUESTS OUTDIR
//
// FIXTURE is an anvil corpus fixture.json (golden/fixtures/*/fixture.json); REQUESTS has one case a
// line, `NAME BODY` (BODY the JSON-RPC request text); existing files in OUTDIR are never overwritten.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mineCorpusChain, startAnvil } from './anvil.ts';

export interface RecordCase {
  readonly name: string;
  readonly body: string;
}

/** Parses `NAME BODY` lines (blank lines and `#` comments skipped). */
export function parseCases(text: string): RecordCase[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const space = line.indexOf(' ');
      if (space <= 0) throw new Error(`not "NAME BODY": ${line.slice(0, 80)}`);
      return { name: line.slice(0, space), body: line.slice(space + 1).trim() };
    });
}

/** Answers of a fresh anvil serving the fixture's chain, raw, in order. */
export async function askAnvil(fixturePath: string, cases: readonly RecordCase[]): Promise<string[]> {
  const anvil = await startAnvil(fixturePath);
  try {
    await mineCorpusChain(anvil.url, fixturePath);
    const answers: string[] = [];
    for (const c of cases) {
      const res = await fetch(anvil.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: c.body });
      answers.push(await res.text());
    }
    return answers;
  } finally {
    await anvil.stop();
  }
}

export async function recordAnvil(fixturePath: string, cases: readonly RecordCase[], outDir: string): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  for (const c of cases) {
    for (const suffix of ['request', 'response']) {
      const path = join(outDir, `${c.name}.${suffix}.json`);
      if (existsSync(path)) throw new Error(`${path} exists; not overwriting`);
    }
  }
  const answers = await askAnvil(fixturePath, cases);
  cases.forEach((c, i) => {
    writeFileSync(join(outDir, `${c.name}.request.json`), c.body);
    writeFileSync(join(outDir, `${c.name}.response.json`), answers[i]!);
  });
}

if (import.meta.main) {
  const [fixture, requests, outDir] = process.argv.slice(2);
  if (fixture === undefined || requests === undefined || outDir === undefined) {
    process.stderr.write('usage: bun test/helpers/recordAnvil.ts FIXTURE REQUESTS OUTDIR\n');
    process.exit(2);
  }
  const cases = parseCases(readFileSync(requests, 'utf8'));
  await recordAnvil(fixture, cases, outDir);
  process.stderr.write(`recorded ${cases.length} anvil answers into ${outDir}\n`);
}
