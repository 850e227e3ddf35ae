// Which test files `npm test` runs, and how they are shared between the lanes that run side by side
// (test/run.ts). The end-to-end files start programs other than blocktrace (anvil, cast, Hardhat,
// solc builds, Chromium, tmux, qemu, Deno, HAProxy, npm pack and install, tmpfs mounts): `npm run test:quick`
// leaves them out, `npm run test:e2e` runs them alone, `npm test` runs both.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The end-to-end files, each with what it starts. */
export const E2E: Readonly<Record<string, string>> = {
  'test/abiArtifacts.test.ts': 'Hardhat and solc builds',
  'test/action.test.ts': 'the GitHub Action as a runner runs it, in a fresh clone',
  'test/apiRuntimes.test.ts': 'the packaged library under Node, Bun and Deno',
  'test/apiRunners.test.ts': 'vitest, jest and bun test example projects from the packed package, anvil',
  'test/builtinFixtures.test.ts': 'npm pack and an install into an empty project',
  'test/captureEdits.test.ts': 'Hardhat',
  'test/clients.test.ts': 'anvil and cast',
  'test/clientsLive.test.ts': 'anvil and cast',
  'test/crossBuild.test.ts': 'the linux-arm64 executable under qemu',
  'test/debugger.test.ts': 'solc builds, Hardhat, Deno',
  'test/debuggerTerminal.test.ts': 'tmux',
  'test/debuggerViewer.test.ts': 'Chromium',
  'test/deploy.test.ts': 'the compiled executable the Dockerfile ships',
  'test/drain.test.ts': 'the bundle under Node and Deno',
  'test/dist.test.ts': 'the compiled executables, Node and Deno',
  'test/forks.test.ts': 'anvil',
  'test/fullDisk.test.ts': 'tmpfs and read-only mounts',
  'test/htmlReport.test.ts': 'Chromium',
  'test/htmlReportMarks.test.ts': 'Chromium',
  'test/impersonation.test.ts': 'Hardhat',
  'test/impersonationClients.test.ts': 'cast',
  'test/install.test.ts': 'npm pack and installs from git and the tarball',
  'test/loading.test.ts': 'anvil',
  'test/npmPackage.test.ts': 'npm pack',
  'test/readme.test.ts': 'the README examples against the installed package',
  'test/replicas.test.ts': 'HAProxy in front of three replicas',
  'test/ui.test.ts': 'Chromium',
  'test/upstream.test.ts': 'anvil',
  'test/upstreamForks.test.ts': 'anvil and the fork nodes',
  'test/viewerArtifacts.test.ts': 'Chromium and solc builds',
  'test/wsRuntimes.test.ts': 'Deno and Node servers',
};

/** Seconds a file took in a whole run (test/fileTimes.json, `bun test/run.ts --write-times`); a new file counts as this. */
const UNKNOWN_SECONDS = 3;

export type Selection = 'all' | 'quick' | 'e2e';

/** Every test file bun would run, relative to `root`, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path));
    }
  };
  for (const top of ['src', 'test']) walk(join(root, top));
  return found.sort();
}

export function selected(files: readonly string[], selection: Selection): string[] {
  if (selection === 'all') return [...files];
  return files.filter((file) => (file in E2E) === (selection === 'e2e'));
}

export function readTimes(path: string): Record<string, number> {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** The files dealt into `count` lanes of about equal time: the longest first, each to the lane with the least so far. */
export function lanes(files: readonly string[], count: number, times: Readonly<Record<string, number>>): string[][] {
  const out = Array.from({ length: Math.max(1, Math.min(count, files.length)) }, () => ({ seconds: 0, files: [] as string[] }));
  const weight = (file: string): number => times[file] ?? UNKNOWN_SECONDS;
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lane = out.reduce((least, lane) => (lane.seconds < least.seconds ? lane : least));
    lane.files.push(file);
    lane.seconds += weight(file);
  }
  return out.map((lane) => lane.files.sort());
}
