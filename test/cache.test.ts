// The replay snapshot cache (issue 18): a chain loaded from a snapshot answers every recorded
// golden with the same bytes as a fresh replay; a flipped byte, a truncated file or another
// fixture's snapshot is detected, warned about in one line and replaced by a replay; two processes
// starting together leave one whole snapshot.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureKey, fixtureKeyLater, snapshotKey } from '../src/cache/fixtureKey.ts';
import { decodeSnapshot, encodeSnapshot, readSnapshot, type Snapshot } from '../src/cache/snapshot.ts';
import { makeCommon } from '../src/replay/common.ts';
import { loadKeccak } from '../src/replay/keccak.ts';
import { lazyKzg } from '../src/replay/kzg.ts';
import { withBlooms } from '../src/replay/receipts.ts';
import { decodeReceipts } from '../src/replay/snapshotData.ts';
import { readFixture } from '../src/fixture/detect.ts';
import { readGolden } from '../src/golden/layouts.ts';
import { checkExchange } from '../src/golden/run.ts';
import { FixtureChain } from '../src/replay/chain.ts';
import { createContext } from '../src/rpc/context.ts';
import { BUN, CLI, ROOT } from './faces.ts';

const GOLDEN = join(ROOT, 'golden');
const SLOW = 120_000;

async function snapshotOf(fixture: string): Promise<Snapshot> {
  return (await replayed(fixture)).made;
}

/** The chain a replay of `fixture` loads, and the snapshot it saves. */
async function replayed(fixture: string): Promise<{ chain: FixtureChain; made: Snapshot }> {
  let made: Snapshot | undefined;
  const chain = await FixtureChain.load(readFixture(fixture), undefined, { save: (s) => void (made = s) });
  if (made === undefined) throw new Error('the replay saved no snapshot');
  return { chain, made };
}

const CASES: [string, string, string[]][] = [
  ['cancun-devnet', join(GOLDEN, 'fixtures/cancun-devnet/fixture.json'), ['anvil/cancun-devnet', 'anvil-trace/cancun-devnet/replay', 'anvil-eth/cancun-devnet/state', 'anvil-eth/cancun-devnet/call', 'anvil-ots/cancun-devnet/ots']],
  ['prague-devnet', join(GOLDEN, 'fixtures/prague-devnet/fixture.json'), ['anvil/prague-devnet', 'anvil-trace/prague-devnet/replay', 'anvil-eth/prague-devnet/reads', 'anvil-ots/prague-devnet/ots']],
  ['execution-apis chain', join(GOLDEN, 'execution-apis/tests'), ['execution-apis/tests']],
];

describe('a chain loaded from its snapshot answers the goldens with the same bytes', () => {
  for (const [name, fixture, goldens] of CASES) {
    test(name, async () => {
      const { chain: live, made } = await replayed(fixture);
      const snapshot = decodeSnapshot(encodeSnapshot('k', made), 'k');
      if (typeof snapshot === 'string') throw new Error(snapshot);
      // the receipts read back, their blooms made again from their logs, are the replayed chain's
      const common = makeCommon(fixture, readFixture(fixture).genesis, lazyKzg, await loadKeccak());
      let logs = 0;
      snapshot.blocks.forEach((b, i) => {
        const receipts = live.receipts(live.blockByNumber(live.genesis.number + BigInt(i) + 1n)!);
        expect(receipts.length).toBe(b.txHashes.length);
        expect(withBlooms(decodeReceipts(b.receipts), common)).toEqual([...receipts]);
        for (const r of receipts) logs += r.logs.length;
      });
      expect(logs).toBeGreaterThan(0);
      // the chain index (the Otterscan searches) is the replay's own, read back
      expect(snapshot.index.data).toEqual(made.index.data);
      expect(made.index.data.postings.size).toBeGreaterThan(0);
      // and so is the log table (eth_getLogs)
      expect(snapshot.logs.data).toEqual(made.logs.data);
      expect(made.logs.data.address.length).toBe(logs);
      const warnings: string[] = [];
      let saved = false;
      const chain = await FixtureChain.load(readFixture(fixture), undefined, { snapshot, save: () => void (saved = true), warn: (l) => warnings.push(l) });
      expect({ warnings, saved }).toEqual({ warnings: [], saved: false });
      expect(chain.chainIndex).toBe(snapshot.index);
      expect(chain.logTable).toBe(snapshot.logs);
      const ctx = createContext(chain, { log: () => {} });
      let checked = 0;
      for (const dir of goldens) {
        for (const exchange of readGolden(join(GOLDEN, dir)).exchanges) {
          expect({ name: exchange.name, diff: await checkExchange(ctx, exchange, 'bytes') }).toEqual({ name: exchange.name, diff: undefined });
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    }, SLOW);
  }

  test('a snapshot whose roots do not fit the headers is not trusted: one warning, then a replay', async () => {
    const fixture = join(GOLDEN, 'fixtures/prague-devnet/fixture.json');
    const good = await snapshotOf(fixture);
    const roots = good.roots.map((r, i) => (i === 3 ? new Uint8Array(32).fill(7) : r));
    const warnings: string[] = [];
    const chain = await FixtureChain.load(readFixture(fixture), undefined, { snapshot: { ...good, roots }, warn: (l) => warnings.push(l) });
    expect(warnings).toEqual(['blocktrace: ignoring the replay cache (block 3: stateRoot differs from the header\'s); replaying the fixture']);
    expect(chain.head.number).toBe(7n);
  }, SLOW);
});

describe('the snapshot file', () => {
  const key = snapshotKey('x', '', 'test');
  const dirWith = async (mutate: (bytes: Buffer) => Buffer): Promise<string> => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-snap-'));
    const bytes = encodeSnapshot(key, await snapshotOf(join(GOLDEN, 'fixtures/prague-devnet/fixture.json')));
    writeFileSync(join(dir, `${key}.snap`), mutate(bytes));
    return dir;
  };
  const cases: [string, (b: Buffer) => Buffer, string][] = [
    ['a flipped byte', (b) => { b[b.length >> 1] ^= 0x01; return b; }, 'checksum mismatch'],
    ['a truncated file', (b) => b.subarray(0, b.length - 1000), 'checksum mismatch'],
    ['another file format', (b) => Buffer.concat([Buffer.from('PK\x03\x04'), b.subarray(4)]), 'not a blocktrace snapshot'],
  ];
  for (const [name, mutate, reason] of cases) {
    test(`${name}: detected, one warning, not used`, async () => {
      const dir = await dirWith(mutate);
      const warnings: string[] = [];
      expect(readSnapshot(dir, key, (l) => warnings.push(l))).toBeUndefined();
      expect(warnings).toEqual([`blocktrace: ignoring the replay cache ${join(dir, `${key}.snap`)} (${reason}); replaying the fixture`]);
    }, SLOW);
  }
  test('a whole snapshot of another fixture (or version), under this name: detected', async () => {
    const dir = await dirWith((b) => b);
    const other = snapshotKey('y', '', 'test');
    const { renameSync } = await import('node:fs');
    renameSync(join(dir, `${key}.snap`), join(dir, `${other}.snap`));
    const warnings: string[] = [];
    expect(readSnapshot(dir, other, (l) => warnings.push(l))).toBeUndefined();
    expect(warnings[0]).toContain('made for another fixture or version');
  }, SLOW);
});

async function harness(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([BUN, CLI, ...args], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr: stderr.split('\n').filter((l) => l !== '' && !l.startsWith('npm warn')).join('\n') };
}

describe('the CLI with --cache', () => {
  const fixture = join(GOLDEN, 'fixtures/cancun-devnet/fixture.json');
  const request = '{"jsonrpc":"2.0","id":1,"method":"debug_traceBlockByNumber","params":["0x3",{"tracer":"prestateTracer","tracerConfig":{"diffMode":true}}]}';

  test('first start writes the snapshot, the second reads it: same answer; a corrupted one: one warning, same answer, rewritten', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-cli-cache-'));
    const fresh = await harness(['--replay-file', fixture, '--no-cache', request]);
    const first = await harness(['--replay-file', fixture, '--cache', dir, request]);
    const files = readdirSync(dir).filter((f) => f.endsWith('.snap'));
    expect(files.length).toBe(1);
    const second = await harness(['--replay-file', fixture, '--cache', dir, request]);
    expect([first, second].map((r) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr }))).toEqual([0, 1].map(() => ({ code: 0, stdout: fresh.stdout, stderr: '' })));
    const path = join(dir, files[0]!);
    const bytes = readFileSync(path);
    bytes[1000] ^= 0xff;
    writeFileSync(path, bytes);
    const third = await harness(['--replay-file', fixture, '--cache', dir, request]);
    expect(third.stdout).toBe(fresh.stdout);
    expect(third.stderr).toBe(`blocktrace: ignoring the replay cache ${path} (checksum mismatch); replaying the fixture`);
    expect(typeof decodeSnapshot(readFileSync(path), files[0]!.replace(/\.snap$/, ''))).toBe('object');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, SLOW);

  test('a fixture large enough to be hashed on a worker: the key hashed in place; the second start reads what the first wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-cli-cache-'));
    // the same chain with a key no loader reads, past the size fixtureKeyLater hands to a worker
    const large = join(dir, 'large.json');
    writeFileSync(large, JSON.stringify({ ...JSON.parse(readFileSync(fixture, 'utf8')), padding: 'x'.repeat(17 * 2 ** 20) }));
    const key = fixtureKey(large);
    expect(await fixtureKeyLater(large)).toBe(key);
    expect(key).not.toBe(fixtureKey(fixture));
    const fresh = await harness(['--replay-file', fixture, '--no-cache', request]);
    const first = await harness(['--replay-file', large, '--cache', dir, request]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.snap'))).toEqual([`${key}.snap`]);
    const second = await harness(['--replay-file', large, '--cache', dir, request]);
    expect([first, second].map((r) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr }))).toEqual([0, 1].map(() => ({ code: 0, stdout: fresh.stdout, stderr: '' })));
    expect(readdirSync(dir).filter((f) => f.endsWith('.snap'))).toEqual([`${key}.snap`]);
    // a key that cannot be made (no such file) rejects, as fixtureKey throws
    await expect(fixtureKeyLater(join(dir, 'none.json'))).rejects.toThrow();
  }, SLOW);

  test('two processes starting together on an empty cache: both answer, one whole snapshot is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'blocktrace-cli-cache-'));
    const [a, b] = await Promise.all([harness(['--replay-file', fixture, '--cache', dir, request]), harness(['--replay-file', fixture, '--cache', dir, request])]);
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.snap')).length).toBe(1);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const snap = files.find((f) => f.endsWith('.snap'))!;
    expect(typeof decodeSnapshot(readFileSync(join(dir, snap)), snap.replace(/\.snap$/, ''))).toBe('object');
    expect(existsSync(join(dir, snap))).toBe(true);
  }, SLOW);
});
