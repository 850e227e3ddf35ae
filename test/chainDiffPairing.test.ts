// `blocktrace diff` pairs what is the same transaction (issue 47): cancun-devnet against a copy whose
// block 9 is built again (test/helpers/rebuiltBlock.ts) with its first 12 transactions as they were,
// the 13th dropped (so every later one sits one place earlier), the 16th's calldata changed (the
// same sender and nonce, another call) and a new transfer appended. By sender and nonce the moved
// transactions pair with themselves, the changed one with its change, and the dropped and the new
// one are listed as one side's; by position (what diff did before) the 10 moved ones were traced
// against other transactions. The real CLI, text, JSON and the HTML report's data.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTx, type TypedTransaction } from '@ethereumjs/tx';
import { loadChain } from '../src/replay/loadChain.ts';
import { ROOT, runHarness } from './faces.ts';
import { devKeys, rebuildBlock, withLastByteChanged } from '../bench/rebuildBlock.ts';

const SLOW = 180_000;
const A = join(ROOT, 'golden/fixtures/cancun-devnet/fixture.json');
const work = mkdtempSync(join(tmpdir(), 'blocktrace-diff-pairing-'));
const B = join(work, 'rebuilt.json');
/** Block 9 with the new transfer appended and nothing else changed. */
const C = join(work, 'appended.json');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Block 9 of cancun-devnet: 23 transactions; the 13th (index 12) is 0xf39f…'s nonce 19, its last in the block. */
const DROPPED = 12;
const CHANGED = 15;
const NEW_SENDER = '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f';
let hashesA: string[];

beforeAll(async () => {
  const chain = await loadChain(A);
  const keys = devKeys();
  const original = chain.blockByNumber(9n)!.block.transactions;
  hashesA = original.map((tx) => `0x${Buffer.from(tx.hash()).toString('hex')}`);
  // the last transaction's sender (0x2361…, nonce 0 in the block) sends again: nonce 1, 1 wei to 0x…dead
  const extra = (last: TypedTransaction): TypedTransaction =>
    createTx(
      { type: 2, nonce: 1n, to: '0x000000000000000000000000000000000000dead', value: 1n, gasLimit: 21_000n, maxFeePerGas: 100_000_000_000n, maxPriorityFeePerGas: 2_000_000_000n, chainId: last.common.chainId() },
      { common: last.common },
    ).sign(keys.get(NEW_SENDER)!);
  await rebuildBlock(A, chain, 9n, (txs) => {
    const kept: TypedTransaction[] = txs.map((tx, i) => (i === CHANGED ? withLastByteChanged(tx, keys) : tx)).filter((_, i) => i !== DROPPED);
    return [...kept, extra(txs[txs.length - 1]!)];
  }, B);
  await rebuildBlock(A, chain, 9n, (txs) => [...txs, extra(txs[txs.length - 1]!)], C);
}, SLOW);

interface JsonPair {
  block: string;
  index: number;
  at: ({ block: string; index: number } | null)[];
  sender?: string;
  nonce?: string;
  pairedBy?: string;
  hashes: (string | null)[];
  missing?: 'a' | 'b';
  kinds: Record<string, unknown>;
  calls: unknown[];
}

describe('diff of a chain and its copy with block 9 built again', () => {
  test('text: moved transactions pair with themselves, the changed one with its change; the dropped and the new one listed as one side\'s', async () => {
    const { code, stdout, stderr } = await runHarness(['diff', A, B, '9', '--no-cache']);
    expect([code, stderr]).toEqual([1, '']);
    const lines = stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^22 transaction pairs in 1 blocks: (\d+) identical, (\d+) differ; 1 only in A, 1 only in B$/);
    const [, identical] = /: (\d+) identical/.exec(lines.at(-1)!)!;
    // the 12 before the dropped one are the same transactions in the same state
    expect(Number(identical)).toBeGreaterThanOrEqual(12);
    // the changed transaction: one place earlier on B, the call tree parts at the top call's input
    expect(stdout).toMatch(new RegExp(`\\nblock 9 tx ${CHANGED} → tx ${CHANGED - 1} \\(${hashesA[CHANGED]!.slice(0, 10)}… \\| 0x[0-9a-f]{8}…\\): gas used [\\d,]+ → [\\d,]+.*\\n  the call trees part at `));
    expect(stdout).toContain(
      [
        'only in A (B has no transaction of the same sender and nonce in the blocks compared):',
        `  block 9 tx ${DROPPED} (${hashesA[DROPPED]!.slice(0, 10)}…): 0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 nonce 19, gas used `,
      ].join('\n'),
    );
    expect(stdout).toMatch(new RegExp(`\\nonly in B \\(A has no transaction of the same sender and nonce in the blocks compared\\):\\n  block 9 tx 22 \\(0x[0-9a-f]{8}…\\): ${NEW_SENDER} nonce 1, gas used 21,000\\n`));
  }, SLOW);

  test('--json: every pair has one sender and nonce on both sides; only the changed one differs in its call tree; the counts', async () => {
    const { code, stdout } = await runHarness(['diff', A, B, '9', '--json', '--no-cache']);
    expect(code).toBe(1);
    const json = JSON.parse(stdout) as { identical: number; differ: number; onlyA: number; onlyB: number; pairs: JsonPair[]; gas: unknown[] };
    expect([json.identical + json.differ, json.onlyA, json.onlyB, json.gas.length]).toEqual([22, 1, 1, 22]);
    const paired = json.pairs.filter((p) => p.missing === undefined);
    expect(paired.every((p) => p.pairedBy === 'sender and nonce')).toBe(true);
    // no pair of two different transactions: the call trees differ in the changed one alone
    expect(paired.filter((p) => p.calls.length > 0).map((p) => [p.index, p.at[1]])).toEqual([[CHANGED, { block: '9', index: CHANGED - 1 }]]);
    expect(paired.find((p) => p.index === CHANGED)!.kinds).toMatchObject({ calls: expect.any(Number) });
    expect(json.pairs.filter((p) => p.missing !== undefined).map((p) => [p.missing, p.block, p.index, p.sender, p.nonce])).toEqual([
      ['b', '9', DROPPED, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', '19'],
      ['a', '9', 22, NEW_SENDER, '1'],
    ]);
  }, SLOW);

  test('the whole chains: the blocks only A has are read from A; B\'s new transfer pairs with A\'s of the same sender and nonce in block 10', async () => {
    const { code, stdout } = await runHarness(['diff', A, B, '--no-cache']);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[3]).toBe('only A has blocks 10–12');
    expect(stdout).toMatch(/\nblock 10 tx 7 → block 9 tx 22 \(0x[0-9a-f]{8}… \| 0x[0-9a-f]{8}…\): gas used 33,132 → 21,000 \(-12,132\)\n/);
    // blocks 10–12 of A hold 205 transactions; one of them is paired with B's block 9
    expect(lines.at(-1)).toBe('105 transaction pairs in 12 blocks: 94 identical, 11 differ; 205 only in A, 0 only in B');
  }, SLOW);

  test('a transaction one side lacks, and nothing else: every pair identical, the one-sided one listed, exit 1', async () => {
    const { code, stdout } = await runHarness(['diff', A, C, '9', '--no-cache']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(
        `^A: ${A}\\nB: ${C}\\n\\nonly in B \\(A has no transaction of the same sender and nonce in the blocks compared\\):\\n  block 9 tx 23 \\(0x[0-9a-f]{8}…\\): ${NEW_SENDER} nonce 1, gas used 21,000\\n\\n23 transaction pairs in 1 blocks: 23 identical, 0 differ; 0 only in A, 1 only in B\\n$`,
      ),
    );
  }, SLOW);

  test('--report: the index says what differs in each pair and its gas change; the one-sided transactions are listed, not drawn', async () => {
    const file = join(work, 'diff.html');
    const { code, stderr } = await runHarness(['diff', A, B, '9', '--report', file, '--no-cache']);
    expect([code, stderr]).toEqual([1, `blocktrace: wrote the HTML report to ${file}\n`]);
    const data = JSON.parse(/<script type="application\/json" id="data">(.*?)<\/script>/s.exec(readFileSync(file, 'utf8'))![1]!) as {
      headline: string;
      sections: { title: string; kind?: string; gas?: string; trees: unknown[] }[];
      oneSided?: { title: string; rows: { place: string; hash: string; sender: string; gas: string }[] }[];
    };
    expect(data.headline).toMatch(/^22 transaction pairs in 1 blocks: \d+ identical, \d+ differ; 1 only in A, 1 only in B$/);
    const changed = data.sections.find((s) => s.title === `block 9 tx ${CHANGED} → tx ${CHANGED - 1}`)!;
    expect(changed.kind).toMatch(/^call tree \(\d+\)/);
    expect(changed.gas).toMatch(/^[\d,]+ → [\d,]+/);
    for (const s of data.sections) expect([s.title, typeof s.kind, typeof s.gas, s.kind === '']).toEqual([s.title, 'string', 'string', false]);
    expect(data.oneSided!.map((l) => [l.title, l.rows.map((r) => [r.place, r.hash, r.sender])])).toEqual([
      ['Only in A (B has no transaction of the same sender and nonce in the blocks compared)', [[`block 9 tx ${DROPPED}`, hashesA[DROPPED], '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266 nonce 19']]],
      ['Only in B (A has no transaction of the same sender and nonce in the blocks compared)', [['block 9 tx 22', expect.stringMatching(/^0x[0-9a-f]{64}$/), `${NEW_SENDER} nonce 1`]]],
    ]);
    // a section for each pair that differs (the changed one's call trees drawn); a one-sided transaction has none, not traced against another
    expect(data.sections.map((s) => s.title)).toEqual(Array.from({ length: 10 }, (_, i) => `block 9 tx ${13 + i} → tx ${12 + i}`));
    expect(changed.trees).toHaveLength(1);
  }, SLOW);
});
