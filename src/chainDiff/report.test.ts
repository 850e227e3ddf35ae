// diff's JSON report: its schema's version, and each difference's texts beside its location as data
// (docs/cli.md, docs/ci.md "The JSON report, version 2").
import { expect, test } from 'bun:test';
import { compareAnswers } from '../compare/answers.ts';
import type { ChainDiff, TxPair } from './diffChains.ts';
import { DIFF_JSON_VERSION, diffJson } from './report.ts';

const HASH = `0x${'ab'.repeat(32)}`;
const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'debug_traceBlockByNumber', params: ['0x2', { tracer: 'callTracer' }] });
const answer = (gasUsed: string): string => JSON.stringify({ jsonrpc: '2.0', id: 1, result: [{ txHash: HASH, result: { type: 'CALL', to: `0x${'11'.repeat(20)}`, gasUsed } }] });

test('version 2; a difference as its texts and its location', () => {
  const calls = compareAnswers(request, answer('0x1'), answer('0x2'), { mode: 'semantic' });
  const pair: TxPair = { block: 2n, index: 0, at: [{ block: 2n, index: 0 }, { block: 2n, index: 0 }], hashes: [HASH, HASH], gasUsed: [1n, 2n], calls, state: [], kinds: { calls: 1, gas: 1n } };
  const diff: ChainDiff = { blocks: [2n], skipped: [], oneSidedBlocks: [], identical: 0, differing: [pair], oneSided: [], gas: [{ block: 2n, index: 0, a: 1n, b: 2n }] };
  const json = JSON.parse(diffJson(diff, ['a.json', 'b.json']));
  expect(json.version).toBe(DIFF_JSON_VERSION);
  expect(DIFF_JSON_VERSION).toBe(2);
  expect(json.pairs[0].calls).toEqual([
    {
      path: '$.result[0].result.gasUsed',
      expected: '"0x1"',
      got: '"0x2"',
      quantity: 'gas',
      where: `tx 0 (${HASH.slice(0, 10)}…) › CALL 0x1111…1111`,
      field: 'gasUsed',
      location: {
        steps: ['result', 0, 'result', 'gasUsed'],
        request: { method: 'debug_traceBlockByNumber', block: '0x2' },
        places: [{ kind: 'tx', index: 0, hash: HASH }, { kind: 'frame', call: { type: 'CALL', to: `0x${'11'.repeat(20)}` } }],
        field: { steps: ['gasUsed'] },
      },
    },
  ]);
});
