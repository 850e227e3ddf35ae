// A full disk and a read-only one (issue 50, item 2), on real mounts: a small tmpfs filled to the
// last byte, and a directory bind-mounted read-only (root ignores a chmod, so only a mount makes a
// directory unwritable here). A command that only reads a chain still answers, the replay cache
// skipped with one warning line; a command whose output cannot be written (record --out, check
// --update, check --report, capture --out) fails with one line and exit 2, and leaves no partial
// file and no golden half-rewritten. Linux as root only: where mount is refused, the tests are
// skipped with the reason.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../bench/procs.ts';
import { PRAGUE, ROOT, runHarness } from './faces.ts';
import { ANVIL, rpc, waitForRpc } from './helpers/anvil.ts';

const work = mkdtempSync(join(tmpdir(), 'blocktrace-disk-'));
const FULL = join(work, 'full');
const RO = join(work, 'ro');
const RO_SOURCE = join(work, 'ro-source');
const CACHE = join(work, 'cache'); // a writable cache for the runs whose cache is not the point
const GOLDENS = join(ROOT, 'golden/anvil/prague-devnet');
const REQUEST = readFileSync(join(GOLDENS, 'block-0x3.trace_block.request.json'), 'utf8').trim();

/** Runs a command with a deadline; its status and what it said. */
const sh = (cmd: string, ...args: string[]) => spawnSync(cmd, args, { encoding: 'utf8', timeout: 10_000 });

/** Why a tmpfs cannot be mounted here (not root, not Linux, a container without the capability); undefined when it can. */
function mountRefused(): string | undefined {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  mkdirSync(FULL, { recursive: true });
  const tried = sh('mount', '-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', FULL);
  if (tried.status !== 0) return `mount -t tmpfs refused: ${(tried.stderr || tried.error?.message || '').trim()}`;
  return undefined;
}
const refused = mountRefused();
if (refused !== undefined) console.warn(`test/fullDisk.test.ts skipped: ${refused}`);
const mounted: string[] = refused === undefined ? [FULL] : [];

/** Fills the tmpfs at FULL to its last byte. */
function fill(): void {
  const chunk = Buffer.alloc(4096, 0x78);
  for (let i = 0; ; i++) {
    try {
      writeFileSync(join(FULL, `filler-${i}`), chunk, { flag: 'wx' });
    } catch {
      // the last block may hold a few bytes more
      try {
        writeFileSync(join(FULL, 'filler-last'), 'x');
      } catch {
        return;
      }
    }
  }
}

/** Files under `dir` other than the filler, with their bytes. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string): void => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      if (name.name.startsWith('filler-')) continue;
      if (name.isDirectory()) walk(join(d, name.name), `${prefix}${name.name}/`);
      else out[`${prefix}${name.name}`] = readFileSync(join(d, name.name), 'utf8');
    }
  };
  walk(dir, '');
  return out;
}

const lines = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '');

/**
 * Goldens of the prague-devnet chain in record's layout, two of them changed so that check fails on
 * them: block-0x7's (12 kB) and a copy of block-0x1's named to come after it (95 kB).
 */
function failingGoldens(into: string): void {
  cpSync(GOLDENS, into, { recursive: true });
  for (const ext of ['request', 'response']) cpSync(join(into, `block-0x1.trace_block.${ext}.json`), join(into, `z-big.trace_block.${ext}.json`));
  for (const [name, block] of [['block-0x7', 7], ['z-big', 1]] as const) {
    const file = join(into, `${name}.trace_block.response.json`);
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`"blockNumber":${block},`, '"blockNumber":9,'));
  }
}

/** A bare anvil on a free port with one block mined, for `fn`; stopped after. */
async function withMinedAnvil(fn: (url: string) => Promise<void>): Promise<void> {
  const port = await freePort();
  const anvil = Bun.spawn([ANVIL, '--host', '127.0.0.1', '--port', String(port)], { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForRpc(url, () => anvil.exitCode !== null);
    await rpc(url, 'anvil_mine', ['0x1']);
    await fn(url);
  } finally {
    anvil.kill('SIGKILL');
    await anvil.exited;
  }
}

let fresh: string;
beforeAll(async () => {
  fresh = (await runHarness(['--replay-file', PRAGUE, '--cache', CACHE, REQUEST])).stdout;
  expect(fresh).toStartWith('{"jsonrpc":"2.0","id":1,"result":[');
  if (refused !== undefined) return;
  // the read-only mount: goldens to update, an empty cache, a cache holding a good snapshot
  failingGoldens(join(RO_SOURCE, 'goldens'));
  mkdirSync(join(RO_SOURCE, 'cache'));
  cpSync(CACHE, join(RO_SOURCE, 'warm'), { recursive: true });
  mkdirSync(RO);
  for (const [cmd, ...args] of [['mount', '--bind', RO_SOURCE, RO], ['mount', '-o', 'remount,bind,ro', RO]] as const) {
    const done = sh(cmd, ...args);
    if (done.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${done.stderr}`);
  }
  mounted.push(RO);
  // the full tmpfs: goldens to update, then filled
  failingGoldens(join(FULL, 'goldens'));
  mkdirSync(join(FULL, 'cache'));
  fill();
}, 120_000);

afterAll(() => {
  for (const dir of mounted.reverse()) {
    if (sh('umount', dir).status !== 0) sh('umount', '-l', dir);
  }
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(refused !== undefined)('a full disk (a tmpfs filled to its last byte)', () => {
  test('--replay-file with its cache there: the same answer, one warning line, no file left', async () => {
    const run = await runHarness(['--replay-file', PRAGUE, '--cache', join(FULL, 'cache'), REQUEST]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: fresh });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write the replay cache .*\.snap: ENOSPC/)]);
    expect(readdirSync(join(FULL, 'cache'))).toEqual([]);
  });

  test('check with its cache there: passes, one warning line', async () => {
    const run = await runHarness(['check', PRAGUE, GOLDENS, '--cache', join(FULL, 'cache')]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: '8 passed, 0 failed\n' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write the replay cache .*: ENOSPC/)]);
  });

  test('record --out there: one line, exit 2, no file and no directory made', async () => {
    const run = await runHarness(['record', PRAGUE, GOLDENS, '--out', join(FULL, 'recorded/sub'), '--cache', CACHE]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write .*: ENOSPC; no file was written$/)]);
    expect(existsSync(join(FULL, 'recorded'))).toBe(false);
  });

  test('check --update there, with room for the first rewrite and not the second: one line, exit 2, every golden as it was, no temporary file', async () => {
    const before = contents(join(FULL, 'goldens'));
    const run = await runHarness(['check', PRAGUE, join(FULL, 'goldens'), '--update', '--cache', CACHE]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot update .*block-0x7\.trace_block\.response\.json: ENOSPC$/)]);
    expect(run.stdout).toContain('2 failed');
    expect(contents(join(FULL, 'goldens'))).toEqual(before);
    // with room for the first (block-0x7's 12 kB, 3 pages) and not the second (95 kB): a rewrite
    // file by file would leave block-0x7 rewritten and z-big not
    for (let i = 0; i < 8; i++) rmSync(join(FULL, `filler-${i}`));
    const roomy = await runHarness(['check', PRAGUE, join(FULL, 'goldens'), '--update', '--cache', CACHE]);
    expect(roomy.code).toBe(2);
    expect(lines(roomy.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot update .*z-big\.trace_block\.response\.json: ENOSPC$/)]);
    expect(contents(join(FULL, 'goldens'))).toEqual(before);
    fill();
  });

  test('check --report there: one line, exit 2, no report and no temporary file', async () => {
    const before = Object.keys(contents(FULL));
    const run = await runHarness(['check', PRAGUE, GOLDENS, '--report', join(FULL, 'report.html'), '--cache', CACHE]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: --report .*report\.html: ENOSPC/)]);
    expect(Object.keys(contents(FULL))).toEqual(before);
  });

  test('capture --out there: one line, exit 2, no file (and to a disk with room: the file alone)', async () => {
    await withMinedAnvil(async (url) => {
      const before = Object.keys(contents(FULL));
      const run = await runHarness(['capture', '--rpc', url, '--block', '1', '--out', join(FULL, 'captured.json')]);
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write .*captured\.json: ENOSPC/)]);
      expect(Object.keys(contents(FULL))).toEqual(before);
      const roomy = join(work, 'captures');
      mkdirSync(roomy);
      expect((await runHarness(['capture', '--rpc', url, '--block', '1', '--out', join(roomy, 'captured.json')])).code).toBe(0);
      expect(readdirSync(roomy)).toEqual(['captured.json']);
      expect(JSON.parse(readFileSync(join(roomy, 'captured.json'), 'utf8'))).toBeObject();
    });
  });
});

describe.skipIf(refused !== undefined)('a read-only mount', () => {
  test('--replay-file with an empty cache there: the same answer, one warning line', async () => {
    const run = await runHarness(['--replay-file', PRAGUE, '--cache', join(RO, 'cache'), REQUEST]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: fresh });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write the replay cache .*: EROFS/)]);
  });

  test('--replay-file with a good snapshot there: read, the same answer, nothing said', async () => {
    const run = await runHarness(['--replay-file', PRAGUE, '--cache', join(RO, 'warm'), REQUEST]);
    expect(run).toEqual({ code: 0, stdout: fresh, stderr: '' });
  });

  test('record --out there: one line, exit 2, nothing written', async () => {
    const run = await runHarness(['record', PRAGUE, GOLDENS, '--out', join(RO, 'recorded'), '--cache', CACHE]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write .*: EROFS; no file was written$/)]);
    expect(existsSync(join(RO, 'recorded'))).toBe(false);
  });

  test('check --update there: one line, exit 2, before the fixture loads; every golden as it was', async () => {
    const before = contents(join(RO, 'goldens'));
    const run = await runHarness(['check', PRAGUE, join(RO, 'goldens'), '--update', '--cache', CACHE]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot update .*: EROFS$/)]);
    expect(contents(join(RO, 'goldens'))).toEqual(before);
  });

  test('capture --out there: one line, exit 2', async () => {
    await withMinedAnvil(async (url) => {
      const run = await runHarness(['capture', '--rpc', url, '--block', '1', '--out', join(RO, 'captured.json')]);
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: cannot write .*captured\.json: EROFS/)]);
      expect(existsSync(join(RO, 'captured.json'))).toBe(false);
    });
  });

  test('check --report there: one line, exit 2, before the fixture loads', async () => {
    const run = await runHarness(['check', PRAGUE, GOLDENS, '--report', join(RO, 'report.html'), '--cache', CACHE]);
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
    expect(lines(run.stderr)).toEqual([expect.stringMatching(/^blocktrace: --report .*report\.html cannot be written/)]);
    expect(existsSync(join(RO, 'report.html'))).toBe(false);
  });
});
