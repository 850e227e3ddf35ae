import { expect, test } from 'bun:test';
import { AbiDecoder } from '../abi/decoder.ts';
import { PLAIN, renderTree, type CallFrameJson } from './render.ts';

const ctx = { decoder: new AbiDecoder([]), labels: new Map<string, string>(), style: PLAIN };
const frame = (to: string, input: string, extra: Partial<CallFrameJson> = {}): CallFrameJson => ({ type: 'CALL', from: '0x' + '11'.repeat(20), to, gas: '0x5208', gasUsed: '0x100', input, ...extra });

test('a call to a precompile is named, not read as a selector', () => {
  const top = frame('0x' + '22'.repeat(20), '0x12345678', {
    calls: [frame('0x0000000000000000000000000000000000000001', '0x' + 'ab'.repeat(128)), frame('0x0000000000000000000000000000000000000100', '0x01'), frame('0x000000000000000000000000000000000000000a', '0x')],
  });
  const lines = renderTree(top, ctx);
  expect(lines[1]).toStartWith('├─ [256] PRECOMPILES::ecrecover(0xabab');
  expect(lines[3]).toBe('├─ [256] PRECOMPILES::p256verify(0x01)');
  expect(lines[5]).toBe('├─ [256] PRECOMPILES::pointEvaluation(0x)');
});

test('empty calldata is fallback(), or receive() for value sent to a known contract', () => {
  expect(renderTree(frame('0x' + '33'.repeat(20), '0x', { value: '0x1' }), ctx)[0]).toBe('[256] 0x3333333333333333333333333333333333333333::fallback{value: 0.000000000000000001 ETH}()');
  const labels = new Map([['0x' + '33'.repeat(20), 'Vault']]);
  expect(renderTree(frame('0x' + '33'.repeat(20), '0x', { value: '0x1' }), { ...ctx, labels })[0]).toBe('[256] Vault::receive{value: 0.000000000000000001 ETH}()');
});
