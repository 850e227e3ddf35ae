// Faults survived by the replay cache (issue 50, item 1): a process killed with SIGKILL at a random
// moment of a load (the replay, a read of the snapshot) or of a snapshot's write leaves nothing the
// next start trips on: it answers the recorded bytes, the cache holds at most one snapshot and that
// one whole (its checksum and key good), and no temporary file is left over (the next start removes
// those of dead writers, src/cache/store.ts sweepTemps). Bounded by the number of kills, not by time.
// Real processes, real signals, real files; the kill moments come from a seeded generator.
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureKey } from '../src/cache/fixtureKey.ts';
import { decodeSnapshot } from '../src/cache/snapshot.ts';
import { BUN, CLI, PRAGUE, ROOT, runHarness } from './faces.ts';
import { random } from './helpers/random.ts';

const KILLS_IN_LOADS = 12;
const KILLS_IN_WRITES = 12;
const GOLDEN = join(ROOT, 'golden/anvil/prague-devnet/block-0x3.trace_block');
const REQUEST = readFileSync(`${GOLDEN}.request.json`, 'utf8').trim();
const KEY = fixtureKey(PRAGUE);
const rand = random(50);
const work = mkdtempSync(join(tmpdir(), 'blocktrace-faults-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The recorded answer (anvil's), as the harness prints it: compact, key order kept. */
const recorded = JSON.stringify(JSON.parse(readFileSync(`${GOLDEN}.response.json`, 'utf8'))) + '\n';

/** What a start after a kill must find and leave: the recorded bytes, at most one snapshot and that one whole, no temporary file. */
async function nextStart(dir: string, what: string): Promise<void> {
  const { code, stdout } = await runHarness(['--replay-file', PRAGUE, '--cache', dir, REQUEST]);
  expect({ what, code, stdout }).toEqual({ what, code: 0, stdout: recorded });
  const files = readdirSync(dir);
  expect({ what, temps: files.filter((f) => f.endsWith('.tmp')) }).toEqual({ what, temps: [] });
  const snaps = files.filter((f) => f.endsWith('.snap'));
  expect(snaps.length).toBeLessThanOrEqual(1);
  for (const snap of snaps) expect({ what, snap: typeof decodeSnapshot(readFileSync(join(dir, snap)), KEY) }).toEqual({ what, snap: 'object' });
}

const clearSnapshots = (dir: string): void => {
  for (const f of readdirSync(dir)) rmSync(join(dir, f), { force: true });
};

test(`${KILLS_IN_LOADS} kills at random moments of a load (a replay that writes the snapshot, or a read of it): each next start answers the recorded bytes, one whole snapshot at most, no temporary file`, async () => {
  const dir = join(work, 'loads');
  // how long a start takes, cold (a replay, then the write) and warm (the snapshot read): the kills are spread over it
  const spans: number[] = [];
  for (const cold of [true, false]) {
    if (cold) rmSync(dir, { recursive: true, force: true });
    const t = performance.now();
    await nextStart(dir, cold ? 'a first start' : 'a second start');
    spans.push(performance.now() - t);
  }
  let kills = 0;
  for (let attempt = 0; kills < KILLS_IN_LOADS && attempt < KILLS_IN_LOADS * 3; attempt++) {
    const cold = attempt % 2 === 0;
    if (cold) clearSnapshots(dir);
    const proc = Bun.spawn([BUN, CLI, '--replay-file', PRAGUE, '--cache', dir, REQUEST], { cwd: ROOT, env: process.env, stdout: 'ignore', stderr: 'ignore' });
    await Bun.sleep(rand() * spans[cold ? 0 : 1]!);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    await proc.exited;
    // it may have ended on its own before the moment drawn: then it was no kill
    if (proc.signalCode === 'SIGKILL') kills++;
    await nextStart(dir, `after kill ${kills} (${cold ? 'cold' : 'warm'})`);
  }
  expect(kills).toBe(KILLS_IN_LOADS);
}, 300_000);

test(`${KILLS_IN_WRITES} kills at random moments of a snapshot's write: each next start removes the dead writer's temporary file and answers the recorded bytes`, async () => {
  const source = join(work, 'source');
  await nextStart(source, 'the source snapshot');
  const dir = join(work, 'writes');
  let midWrite = 0;
  // at least KILLS_IN_WRITES kills, and on until half that many caught a write half done (how many
  // land there depends on the machine's load): at most four times as many
  for (let kill = 1; (kill <= KILLS_IN_WRITES || midWrite < KILLS_IN_WRITES / 2) && kill <= KILLS_IN_WRITES * 4; kill++) {
    if (kill % 3 === 0) clearSnapshots(dir); // some kills land before any write of this directory ended
    const proc = Bun.spawn([BUN, join(ROOT, 'test/helpers/snapshotWriterLoop.ts'), PRAGUE, source, dir], { cwd: ROOT, env: process.env, stdout: 'pipe', stderr: 'inherit' });
    const reader = proc.stdout.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('writing\n');
    // a write of this 200 kB snapshot takes a few ms: a moment within the first ones
    await Bun.sleep(rand() * 20);
    proc.kill('SIGKILL');
    await proc.exited;
    expect(proc.signalCode).toBe('SIGKILL');
    // killed between the temporary file's creation and its rename: what the next start must clean up
    if (readdirSync(dir).some((f) => f.endsWith('.tmp'))) midWrite++;
    await nextStart(dir, `after write kill ${kill}`);
  }
  // the faults were injected: kills caught writes half done
  expect(midWrite).toBeGreaterThanOrEqual(KILLS_IN_WRITES / 2);
}, 300_000);
