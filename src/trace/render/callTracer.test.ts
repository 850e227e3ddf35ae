import { describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { goJson } from '../../encoding/json.ts';
import { findTracer } from '../registry.ts';
import { addr, blockRecording, bytes, txRecording } from '../../../test/helpers/arena.ts';
import { callTracer, renderCallTracer } from './callTracer.ts';

const A = '0x' + 'aa'.repeat(20);
const B = '0x' + 'bb'.repeat(20);
const C = '0x' + 'cc'.repeat(20);
const errorString = (s: string) =>
  '0x08c379a0' + '20'.padStart(64, '0') + s.length.toString(16).padStart(64, '0') + Buffer.from(s).toString('hex').padEnd(64, '0');
const log = (position: number, index: number) => ({ topics: [bytes('0x' + '01'.repeat(32))], data: bytes('0x02'), position, index });

describe('callTracer frame', () => {
  test('key order, omitted empties, top frame gas from the transaction', () => {
    const tx = txRecording({ value: 5n, input: '0x1234', output: '0xff', calls: [{ kind: 'STATICCALL', from: addr(0xbb), to: addr(0xcc), gas: 700n, gasUsed: 30n }] });
    expect(goJson(renderCallTracer(tx, {}))).toBe(
      `{"from":"${A}","gas":"0x186a0","gasUsed":"0xc350","to":"${B}","input":"0x1234","output":"0xff",` +
        `"calls":[{"from":"${B}","gas":"0x2bc","gasUsed":"0x1e","to":"${C}","input":"0x","type":"STATICCALL"}],"value":"0x5","type":"CALL"}`,
    );
  });

  test('DELEGATECALL shows the inherited value, SELFDESTRUCT its balance', () => {
    const tx = txRecording({
      value: 9n,
      calls: [
        { kind: 'DELEGATECALL', value: 9n, from: addr(0xbb), to: addr(0xcc) },
        { kind: 'SELFDESTRUCT', from: addr(0xbb), to: addr(0xdd), value: 77n, gas: 0n, gasUsed: 0n },
      ],
    });
    const out = renderCallTracer(tx, {});
    expect(out.calls!.toJSON()[0]!.value).toBe('0x9');
    expect(goJson(out.calls!.toJSON()[1])).toBe(`{"from":"${B}","gas":"0x0","gasUsed":"0x0","to":"0x${'dd'.repeat(20)}","input":"0x","value":"0x4d","type":"SELFDESTRUCT"}`);
  });

  test('failed CREATE has no to; only a revert keeps its output, with revertReason', () => {
    const tx = txRecording({
      calls: [
        { kind: 'CREATE', to: addr(0xcc), failure: { kind: 'outOfGas' }, output: '0xdead', gas: 50n, gasUsed: 50n },
        { kind: 'CREATE2', to: addr(0xcc), failure: { kind: 'reverted' }, output: errorString('no <way>') },
        { kind: 'CALL', failure: { kind: 'reverted' }, output: '0x4e487b71' + '12'.padStart(64, '0') },
      ],
    });
    const [oog, rev, panic] = renderCallTracer(tx, {}).calls!;
    expect(Object.keys(oog!)).toEqual(['from', 'gas', 'gasUsed', 'input', 'error', 'value', 'type']);
    expect(oog!.error).toBe('out of gas');
    expect(rev!.to).toBeUndefined();
    expect(rev!.output).toBe(errorString('no <way>'));
    expect(goJson(rev!.revertReason)).toBe('"no \\u003cway\\u003e"');
    expect(panic!.revertReason).toBe('division or modulo by zero');
  });

  test('onlyTopCall drops calls', () => {
    const tx = txRecording({ calls: [{}] });
    expect(renderCallTracer(tx, { onlyTopCall: true }).calls).toBeUndefined();
  });
});

describe('callTracer logs', () => {
  const tree = {
    logs: [log(0, 0), log(2, 3)],
    calls: [
      { logs: [log(0, 1)], calls: [{ logs: [log(0, 2)] }] },
      { failure: { kind: 'reverted' as const }, logs: [log(0, -1)], calls: [{ logs: [log(0, -1)] }] },
    ],
  };

  test('withLog: address, topics, data, index, position; failed frames and descendants cleared', () => {
    const out = renderCallTracer(txRecording(tree), { withLog: true });
    expect(goJson(out.logs!.toJSON()[1])).toBe(`{"address":"${B}","topics":["0x${'01'.repeat(32)}"],"data":"0x02","index":"0x3","position":"0x2"}`);
    expect(out.calls!.toJSON()[0]!.calls!.toJSON()[0]!.logs!.toJSON().length).toBe(1);
    expect(out.calls!.toJSON()[1]!.logs).toBeUndefined();
    expect(out.calls!.toJSON()[1]!.calls!.toJSON()[0]!.logs).toBeUndefined();
  });

  test('no logs without withLog; a failed top call clears every frame', () => {
    expect(renderCallTracer(txRecording(tree), {}).logs).toBeUndefined();
    const failed = renderCallTracer(txRecording({ ...tree, failure: { kind: 'outOfGas' } }), { withLog: true });
    expect(failed.logs).toBeUndefined();
    expect(failed.calls!.toJSON()[0]!.logs).toBeUndefined();
  });

  test('onlyTopCall keeps depth-0 logs, every position 0 (geth records no children then)', () => {
    const out = renderCallTracer(txRecording(tree), { withLog: true, onlyTopCall: true });
    expect(out.logs!.toJSON().map((l) => l.position)).toEqual(['0x0', '0x0']);
  });
});

describe('callTracer registry entry', () => {
  test('registered under its wire name; config checked by schema, unknown keys ignored like geth', () => {
    expect(findTracer('callTracer') as unknown).toBe(callTracer);
    expect(Value.Check(callTracer.configSchema, { withLog: true, onlyTopCall: false })).toBe(true);
    expect(Value.Check(callTracer.configSchema, { bogus: 1 })).toBe(true);
    expect(Value.Check(callTracer.configSchema, { withLog: 'yes' })).toBe(false);
    const tx = txRecording({});
    expect(goJson(callTracer.render(tx, {}, blockRecording([tx])))).toBe(goJson(renderCallTracer(tx, {})));
  });
});
