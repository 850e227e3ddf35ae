// The kept-recording codec on hand-built recordings: every kind of Failure with its fields, every
// optional part of a frame, values past 2^52, large inputs repeated and patched. Recordings of real
// blocks are checked in test/keptRecordings.test.ts.
import { describe, expect, test } from 'bun:test';
import { addr, blockRecording, bytes, txRecording } from '../../test/helpers/arena.ts';
import { patched, patchesFrom } from '../trace/inputPatches.ts';
import type { BlockRecording, CallFrame, Failure } from '../trace/types.ts';
import { decodeRecording } from './decodeRecording.ts';
import { encodeRecording } from './encodeRecording.ts';
import { FAILURE_FIELDS, FAILURE_KINDS } from './layout.ts';

const roundTrip = (recording: BlockRecording): BlockRecording =>
  decodeRecording(encodeRecording(recording), { number: recording.number, hash: recording.hash, txHashes: recording.txs.map((t) => t.txHash) });

/** One failure of each kind, its numbers and texts set to something the kind would carry. */
const EVERY_FAILURE: Failure[] = [
  { kind: 'reverted' },
  { kind: 'outOfGas' },
  { kind: 'writeProtection', opcode: 0x55 },
  { kind: 'invalidJump' },
  { kind: 'invalidOpcode', opcode: 0xfe },
  { kind: 'invalidOpcode', opcode: 0x5f, later: true },
  { kind: 'invalidOpcode', opcode: 0x5f, later: false },
  { kind: 'stackUnderflow', have: 1, need: 2 },
  { kind: 'stackOverflow', have: 1025, limit: 1024 },
  { kind: 'insufficientBalance' },
  { kind: 'callDepth' },
  { kind: 'nonceOverflow' },
  { kind: 'createCollision' },
  { kind: 'codeSizeExceeded', size: 24577, limit: 24576 },
  { kind: 'initCodeSizeExceeded', size: 2 ** 60, limit: 49152 },
  { kind: 'codeStartsWithEF' },
  { kind: 'codeStoreOutOfGas' },
  { kind: 'returnDataOutOfBounds' },
  { kind: 'sstoreSentry' },
  { kind: 'precompile', reason: 'bn254NotOnCurve' },
  { kind: 'other', message: 'something ethereumjs said — «quoted»' },
];

describe('a recording encoded and decoded', () => {
  test('the list of failures above has every kind', () => {
    expect(new Set(EVERY_FAILURE.map((f) => f.kind))).toEqual(new Set(FAILURE_KINDS));
    expect(Object.keys(FAILURE_FIELDS).length).toBe(19);
  });

  test('every kind of failure, with its fields (an absent `later` stays absent)', () => {
    const recording = blockRecording(EVERY_FAILURE.map((failure, i) => txRecording({ failure, gasUsed: BigInt(i) }, { txIndex: i, txHash: new Uint8Array(32).fill(i) })));
    const back = roundTrip(recording);
    expect(back).toStrictEqual(recording);
    expect('later' in back.txs[4]!.frames[0]!.failure!).toBe(false);
  });

  test('nested frames of every kind, logs, create addresses, precompiles, rewards, big values, sets', () => {
    const big = 2n ** 200n + 12345n;
    const tx = txRecording({
      value: big,
      gas: 2n ** 52n,
      gasUsed: 2n ** 52n - 1n,
      input: '0x12345678',
      output: '0xdeadbeef',
      logs: [{ topics: [bytes(`0x${'ab'.repeat(32)}`)], data: bytes('0x01'), position: 0, index: 3 }],
      calls: [
        { kind: 'DELEGATECALL', to: addr(0xcc), logs: [{ topics: [], data: new Uint8Array(), position: 0, index: -1 }] },
        { kind: 'STATICCALL', to: addr(0x01), precompile: true, failure: { kind: 'precompile', reason: 'invalidInputLength' } },
        { kind: 'CREATE', to: undefined, createAddress: addr(0xdd), failure: { kind: 'reverted' }, calls: [{ kind: 'CALLCODE' }] },
        { kind: 'CREATE2', to: addr(0xee), createAddress: addr(0xee), output: '0x6000' },
        { kind: 'SELFDESTRUCT', to: addr(0xaa), value: 5n },
      ],
    }, { txType: 4, refund: 0n, state: { accounts: new Map(), selfDestructed: new Set(['ee'.repeat(20)]), created: new Set(['dd'.repeat(20), 'ee'.repeat(20)]), eip6780: false } });
    const recording = blockRecording([tx, txRecording({}, { txIndex: 1, txHash: new Uint8Array(32).fill(9) })], [
      { author: addr(0x10), kind: 'block', value: 5n * 10n ** 18n },
      { author: addr(0x11), kind: 'uncle', value: 4n * 10n ** 18n },
    ]);
    expect(roundTrip(recording)).toStrictEqual(recording);
  });

  test('a traced call keeps its flag; an empty block has no transactions', () => {
    const call = { ...blockRecording([txRecording({})]), call: true };
    expect(roundTrip(call)).toStrictEqual(call);
    expect(roundTrip(blockRecording([]))).toStrictEqual(blockRecording([]));
  });

  test('large inputs: one repeated is kept once, one changed in a few bytes as a patch, read again each time', () => {
    const memory = new Uint8Array(50_000).map((_, i) => i % 251);
    const changed = memory.slice();
    changed[0x80] = 7;
    changed[49_999] = 9;
    const other = new Uint8Array(50_000).fill(3);
    const recording = blockRecording([txRecording({ calls: [{}, {}, {}, {}, {}] })]);
    const frames = recording.txs[0]!.frames;
    const patches = patchesFrom(memory, changed)!;
    const inputs: (Uint8Array | (() => Uint8Array))[] = [memory, memory, patched(memory, patches), other, changed];
    inputs.forEach((input, i) => setInput(frames[i + 1]!, input));
    const encoded = encodeRecording(recording);
    expect(encoded.length).toBeLessThan(3 * 50_000 + 1000);
    const back = roundTrip(recording);
    expect(back).toStrictEqual(recording);
    const decoded = back.txs[0]!.frames;
    expect(decoded[2]!.input).toBe(decoded[1]!.input);
    expect(decoded[3]!.input).not.toBe(decoded[3]!.input);
    expect(decoded[3]!.input).toEqual(changed);
  });

  test('a recording with state is refused; bytes of another block or cut short are refused', () => {
    const tx = txRecording({});
    tx.state.accounts.set('aa'.repeat(20), undefined as never);
    expect(() => encodeRecording(blockRecording([tx]))).toThrow('only a recording without state');
    const bytesOf = encodeRecording(blockRecording([txRecording({})]));
    expect(() => decodeRecording(bytesOf, { number: 8n, hash: new Uint8Array(32), txHashes: [] })).toThrow('1 transactions, the block has 0');
    expect(() => decodeRecording(bytesOf.subarray(0, bytesOf.length - 1), { number: 8n, hash: new Uint8Array(32), txHashes: [new Uint8Array(32)] })).toThrow('truncated');
  });
});

function setInput(frame: CallFrame, input: Uint8Array | (() => Uint8Array)): void {
  if (typeof input === 'function') Object.defineProperty(frame, 'input', { get: input, enumerable: true });
  else Object.defineProperty(frame, 'input', { value: input, enumerable: true, writable: false });
}
