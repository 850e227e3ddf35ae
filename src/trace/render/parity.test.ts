import { describe, expect, test } from 'bun:test';
import { goJson } from '../../encoding/json.ts';
import { addr, blockRecording, txRecording } from '../../../test/helpers/arena.ts';
import { renderParityBlock, renderParityTx } from './parity.ts';

const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);
const C = '0x' + 'cc'.repeat(20);
const ZERO = '0x' + '00'.repeat(20);
const BLOCK = `"blockHash":"0x${'22'.repeat(32)}","blockNumber":8`;
const TX = `"transactionHash":"0x${'11'.repeat(32)}","transactionPosition":0`;

describe('parity traces of one transaction', () => {
  test('bytes: top gas net of intrinsic, gasUsed before refund; children depth first', () => {
    const tx = txRecording({
      value: 3n,
      input: '0x01',
      output: '0x02',
      calls: [{ kind: 'STATICCALL', from: addr(0xbb), to: addr(0xcc), gas: 500n, gasUsed: 20n, calls: [{ kind: 'DELEGATECALL', from: addr(0xcc), to: addr(0xdd) }] }, { kind: 'CALL', from: addr(0xbb), to: addr(0xcc), value: 1n }],
    });
    const out = renderParityTx(blockRecording([tx]), 0).toJSON();
    expect(goJson(out[0])).toBe(
      `{"action":{"from":"${A}","callType":"call","gas":"0x13498","input":"0x01","to":"${B}","value":"0x3"},${BLOCK},` +
        `"result":{"gasUsed":"0x9858","output":"0x02"},"subtraces":2,"traceAddress":[],${TX},"type":"call"}`,
    );
    expect(goJson(out[1])).toBe(
      `{"action":{"from":"${B}","callType":"staticcall","gas":"0x1f4","input":"0x","to":"${C}","value":"0x0"},${BLOCK},` +
        `"result":{"gasUsed":"0x14","output":"0x"},"subtraces":1,"traceAddress":[0],${TX},"type":"call"}`,
    );
    expect(out.map((t) => t.traceAddress)).toEqual([[], [0], [0, 0], [1]]);
    expect(out.map((t) => (t.action as { callType: string }).callType)).toEqual(['call', 'staticcall', 'delegatecall', 'call']);
  });

  test('a reverted create keeps result with its address and the revert data; other failures have null', () => {
    const tx = txRecording({
      calls: [
        { kind: 'CREATE2', to: undefined, createAddress: addr(0xee), failure: { kind: 'reverted' }, output: '0x08c379a0', gas: 90n, gasUsed: 9n, input: '0x60' },
        { kind: 'CREATE', to: undefined, createAddress: addr(0xef), failure: { kind: 'codeStartsWithEF' }, gas: 90n, gasUsed: 90n },
        { kind: 'CALL', failure: { kind: 'precompile', reason: 'invalidInputLength' }, precompile: true },
      ],
    });
    const [, rev, ef, pre] = renderParityTx(blockRecording([tx]), 0).toJSON();
    expect(goJson(rev)).toBe(
      `{"action":{"from":"${A}","gas":"0x5a","init":"0x60","value":"0x0","creationMethod":"create2"},${BLOCK},"error":"Reverted",` +
        `"result":{"address":"0x${'ee'.repeat(20)}","code":"0x08c379a0","gasUsed":"0x9"},"subtraces":0,"traceAddress":[0],${TX},"type":"create"}`,
    );
    expect(ef!.result).toBeNull();
    expect(ef!.error).toBe('CreateContractStartingWithEF');
    expect(pre!.error).toBe('Built-in failed');
    expect(pre!.traceAddress).toEqual([2]);
  });

  test('a failed top call keeps its shape, result null', () => {
    const out = renderParityTx(blockRecording([txRecording({ failure: { kind: 'invalidOpcode', opcode: 0xfe } })]), 0).toJSON();
    expect(goJson(out[0])).toContain(`${BLOCK},"error":"Bad instruction","result":null,"subtraces":0`);
  });

  test('SELFDESTRUCT is a suicide trace, last child, result null', () => {
    const tx = txRecording({ calls: [{ calls: [{}, { kind: 'SELFDESTRUCT', from: addr(0xbb), to: addr(0xdd), value: 1000n }] }] });
    const out = renderParityTx(blockRecording([tx]), 0).toJSON();
    expect(out[1]!.subtraces).toBe(2);
    expect(goJson(out[3])).toBe(
      `{"action":{"address":"${B}","balance":"0x3e8","refundAddress":"0x${'dd'.repeat(20)}"},${BLOCK},"result":null,"subtraces":0,"traceAddress":[0,1],${TX},"type":"suicide"}`,
    );
  });

  test('EIP-6780 self-beneficiary of a pre-existing contract: revm reports zeroes', () => {
    const selfDestruct = { kind: 'SELFDESTRUCT' as const, from: addr(0xbb), to: addr(0xbb), value: 5n };
    const zeroed = renderParityTx(blockRecording([txRecording({ calls: [selfDestruct] })]), 0).toJSON()[1]!;
    expect(zeroed.action).toEqual({ address: ZERO, balance: '0x0', refundAddress: ZERO });
    const created = txRecording({ calls: [selfDestruct] });
    created.state.created.add('bb'.repeat(20));
    expect(renderParityTx(blockRecording([created]), 0).toJSON()[1]!.action).toEqual({ address: B, balance: '0x5', refundAddress: B });
  });
});

describe('parity traces of a block', () => {
  test('transactions in order, then rewards without transaction fields', () => {
    const t0 = txRecording({});
    const t1 = txRecording({ calls: [{}] }, { txIndex: 1, txHash: new Uint8Array(32).fill(0x33) });
    const block = blockRecording([t0, t1], [
      { author: addr(0x01), kind: 'block', value: 2000000000000000000n },
      { author: addr(0x02), kind: 'uncle', value: 1750000000000000000n },
    ]);
    const out = renderParityBlock(block).toJSON();
    expect(out.map((t) => t.transactionPosition)).toEqual([0, 1, 1, undefined, undefined]);
    expect(goJson(out[3])).toBe(
      `{"action":{"author":"0x${'01'.repeat(20)}","rewardType":"block","value":"0x1bc16d674ec80000"},${BLOCK},"result":null,"subtraces":0,"traceAddress":[],"type":"reward"}`,
    );
    expect((out[4]!.action as { rewardType: string }).rewardType).toBe('uncle');
    expect(renderParityBlock(blockRecording([])).toJSON()).toEqual([]);
  });
});
