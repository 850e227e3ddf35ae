// The walks of revm-inspectors builder/parity.rs that vmTraceTree.ts reproduces, on hand-built
// frames, one rule a test: the one queue of callee traces, the precompile calls without a node, the
// STOP rule and the breadth-first codes (anvil's recordings in golden/anvil-vmtrace show each too).
import { describe, expect, test } from 'bun:test';
import { addr, txRecording } from '../../../test/helpers/arena.ts';
import type { AccountState, TouchedAccount, TxRecording } from '../types.ts';
import { assembleVmTrace, type FrameOps } from './vmTraceTree.ts';

/** A frame's ops: `names` written in order, a `*` after each call-like op (its sub-trace's place). */
function opsOf(names: readonly string[], firstOp = 0x01, lastOp = 0x01): FrameOps {
  const segments: string[][] = [[]];
  for (const name of names) {
    if (name === '*') segments.push([]);
    else segments[segments.length - 1]!.push(name);
  }
  return { segments, holes: segments.length - 1, firstOp, lastOp };
}

function withCode(tx: TxRecording, codes: Record<number, string>): TxRecording {
  for (const [byte, code] of Object.entries(codes)) {
    const bytes = Uint8Array.from(Buffer.from(code, 'hex'));
    const pre = { balance: 0n, nonce: 1n, code: bytes, codeHash: new Uint8Array(32), empty: false } as AccountState;
    const key = Buffer.from(addr(Number(byte))).toString('hex');
    tx.state.accounts.set(key, { address: addr(Number(byte)), pre, preStorage: new Map(), post: undefined, postStorage: new Map() } as unknown as TouchedAccount);
  }
  return tx;
}

const text = (tx: TxRecording, ops: Map<number, FrameOps>): string => assembleVmTrace(tx, ops).parts.join('');

describe('assembleVmTrace', () => {
  test("one queue per transaction: a frame's call takes an earlier sibling's trace still queued", () => {
    // root (0xbb) calls A (0xcc, frame 1), then B (0xdd, frame 2), which calls B1 (0xee, frame 3)
    const tx = withCode(txRecording({ to: addr(0xbb), calls: [{ to: addr(0xcc) }, { to: addr(0xdd), calls: [{ to: addr(0xee) }] }] }), { 0xbb: '01', 0xcc: '02', 0xdd: '03', 0xee: '04' });
    const ops = new Map([
      [0, opsOf(['r1', '*', 'r2', '*', 'r3'])],
      [1, opsOf(['a'])],
      [2, opsOf(['b1', '*', 'b2'])],
      [3, opsOf(['c'])],
    ]);
    // A is built first and queued; B's call takes it, then B1 and B go to the root's two calls. The
    // codes go breadth first over the tree so built (root; B1, B; A), from the frames' accounts
    // breadth first (0xbb; 0xcc, 0xdd; 0xee)
    expect(text(tx, ops)).toBe('{"code":"0x01","ops":[r1{"code":"0x02","ops":[c]}r2{"code":"0x03","ops":[b1{"code":"0x04","ops":[a]}b2]}r3]}');
  });

  test('a call into a precompile without value is no node: the next call takes the queued trace, the last none', () => {
    const tx = txRecording({ to: addr(0xbb), calls: [{ to: addr(0x01), precompile: true }, { to: addr(0xcc) }, { to: addr(0x02), precompile: true, value: 1n }] });
    const ops = new Map([[0, opsOf(['p', '*', 'c', '*', 'v', '*', 'end'])], [2, opsOf(['x'])]]);
    // the value-carrying precompile call has a node (no ops), placed after the queued callee
    expect(text(tx, ops)).toBe('{"code":"0x","ops":[p{"code":"0x","ops":[x]}c{"code":"0x","ops":[]}vnullend]}');
  });

  test("a frame whose first op is STOP, the last frame's last op STOP too: no ops at all", () => {
    const tx = withCode(txRecording({ to: addr(0xbb), calls: [{ to: addr(0xcc) }] }), { 0xbb: '6000' });
    const ops = new Map([[0, opsOf(['call', '*', 'ret'])], [1, opsOf(['stop'], 0x00, 0x00)]]);
    expect(text(tx, ops)).toBe('{"code":"0x6000","ops":[]}');
    // a STOP that does not end the transaction's last frame is written
    const later = new Map([[0, opsOf(['call', '*', 'ret'])], [1, opsOf(['stop', 'more'], 0x00, 0x01)]]);
    expect(text(tx, later)).toBe('{"code":"0x6000","ops":[call{"code":"0x","ops":[stopmore]}ret]}');
  });

  test('the text added around the ops is counted', () => {
    const tx = txRecording({ to: addr(0xbb) });
    const { parts, added } = assembleVmTrace(tx, new Map([[0, opsOf(['abc'])]]));
    expect(parts.join('')).toBe('{"code":"0x","ops":[abc]}');
    expect(added).toBe(parts.join('').length - 3);
  });
});
