// The snapshots of the test files this process ran that no test asked for (a renamed or removed
// test left them), one line each, said once per test file at the end of its run. They are reported,
// never removed: a run of some tests only (`-t`, `.only`) would count the others' as obsolete. A test
// file where a snapshot failed is passed over: the assertions after the failure never ran.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { readGasFile } from './gasSnapshot.ts';
import { failedFiles, seen, seenGas, tracesDir } from './runner.ts';

function responsesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.startsWith('.') && e.name.endsWith('.response.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The lines said (through `warn`, each after `blocktrace: `) for every snapshot not asked for. */
export function reportObsolete(warn: (line: string) => void = (line) => console.warn(line)): string[] {
  const lines: string[] = [];
  for (const [testPath, files] of seen) {
    if (failedFiles.has(testPath)) continue;
    for (const file of responsesUnder(join(tracesDir(testPath), basename(testPath)))) {
      if (!files.has(file)) lines.push(`obsolete trace snapshot ${relative(process.cwd(), file)}: no test asked for it in this run`);
    }
  }
  seen.clear();
  for (const [file, { testPath, names }] of seenGas) {
    if (failedFiles.has(testPath)) continue;
    for (const name of readGasFile(file).keys()) {
      if (!names.has(name)) lines.push(`obsolete gas snapshot ${JSON.stringify(name)} in ${relative(process.cwd(), file)}: no test asked for it in this run`);
    }
  }
  seenGas.clear();
  failedFiles.clear();
  for (const line of lines) warn(`blocktrace: ${line}`);
  return lines;
}
