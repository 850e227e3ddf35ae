import { expect, test } from 'bun:test';
import { readFirstValue } from '../encoding/rawJson.ts';
import { parseGoDuration } from './goDuration.ts';
import { gethDecodeUint64 } from './schemas.ts';
import { serdeLenientBlock } from './serdeParams.ts';

const node = (text: string) => {
  const r = readFirstValue(text);
  if (r.kind !== 'value') throw new Error(text);
  return r.node;
};
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
};

test('hexutil.DecodeUint64: checks in go-ethereum order, first bad digit or overflow wins', () => {
  expect(gethDecodeUint64('0X1f')).toBe(31n);
  expect(message(() => gethDecodeUint64('0x1z' + 'f'.repeat(20)))).toBe('invalid hex string');
  expect(message(() => gethDecodeUint64('0x' + 'f'.repeat(17) + 'z'))).toBe('hex number > 64 bits');
  expect(message(() => gethDecodeUint64('0x00'))).toBe('hex number with leading zero digits');
});

test('time.ParseDuration', () => {
  expect(parseGoDuration('1h2m3.5s')).toBe(3_723_500);
  expect(parseGoDuration('300ms')).toBe(300);
  expect(parseGoDuration('0')).toBe(0);
  expect(message(() => parseGoDuration('10'))).toBe('time: missing unit in duration "10"');
  expect(message(() => parseGoDuration('10x'))).toBe('time: unknown unit "x" in duration "10x"');
  expect(message(() => parseGoDuration('.s'))).toBe('time: invalid duration ".s"');
});

test('alloy lenient block number: decimal first, then tag, then 0x hex', () => {
  expect(serdeLenientBlock.decode(node('"10"'))).toEqual({ number: 10n });
  expect(serdeLenientBlock.decode(node('"0x10"'))).toEqual({ number: 16n });
  expect(serdeLenientBlock.decode(node('"safe"'))).toEqual({ tag: 'safe' });
  expect(message(() => serdeLenientBlock.decode(node('"0x"')))).toBe('cannot parse integer from empty string');
  expect(message(() => serdeLenientBlock.decode(node('"abc"')))).toBe('hex string without 0x prefix');
  expect(message(() => serdeLenientBlock.decode(node('1.5')))).toBe('invalid type: floating point `1.5`, expected a block number or tag, or a u64');
});

test('readFirstValue keeps raw text and reads like encoding/json', () => {
  expect(node(' {"a" : [1, "x\\u0041"]} tail').raw).toBe('{"a" : [1, "x\\u0041"]}');
  expect(readFirstValue('01').kind).toBe('value'); // the stream decoder stops after "0"
  expect(readFirstValue('1.').kind).toBe('invalid');
  expect(readFirstValue('"a\u0001"').kind).toBe('invalid');
  expect(readFirstValue('   ').kind).toBe('empty');
  expect(node('"\\ud800"')).toMatchObject({ t: 'string', value: '\uFFFD' });
});
