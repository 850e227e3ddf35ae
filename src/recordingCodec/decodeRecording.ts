// A kept recording read back (the layout is in encodeRecording.ts): the same BlockRecording as the
// replay made, its bytes views of the encoded ones (kept, never changed), a patched input made
// again each time it is read, as the recorder keeps it (replay/frames.ts).
import { bytesToUnprefixedHex } from '@ethereumjs/util';
import { type KeptInput, NO_INPUT, patched, type Patch, SMALL_INPUT, withInput } from '../trace/inputPatches.ts';
import type { BlockRecording, BlockReward, CallFrame, Failure, RecordedLog, TxRecording } from '../trace/types.ts';
import { ByteReader } from './bytes.ts';
import {
  EIP6780, FAILURE_FIELDS, FAILURE_KINDS, FLAG_ABSENT, FLAG_TRUE, HAS_CREATE_ADDRESS, HAS_FAILURE, HAS_LOGS, HAS_TO,
  INPUT_BYTES, INPUT_PATCHED_BASE, INPUT_SAME_AS_BASE, KINDS, PRECOMPILE, VERSION,
} from './layout.ts';

/** What the bytes leave out: the block's number, hash and transaction hashes. */
export interface RecordedBlock {
  readonly number: bigint;
  readonly hash: Uint8Array;
  readonly txHashes: readonly Uint8Array[];
}

interface Context {
  readonly r: ByteReader;
  readonly words: readonly Uint8Array[];
  readonly hexes: (string | undefined)[];
  base: Uint8Array | undefined;
}

export function decodeRecording(bytes: Uint8Array, block: RecordedBlock): BlockRecording {
  const r = new ByteReader(bytes);
  const version = r.u8();
  if (version !== VERSION) throw new Error(`recording codec: version ${version}, not ${VERSION}`);
  const call = r.u8() === 1;
  const words: Uint8Array[] = [];
  for (let n = r.uint(); n > 0; n--) words.push(r.bytes());
  const c: Context = { r, words, hexes: [], base: undefined };
  const rewards: BlockReward[] = [];
  for (let n = r.uint(); n > 0; n--) {
    const author = word(c);
    rewards.push({ author, kind: r.u8() === 0 ? 'block' : 'uncle', value: r.big() });
  }
  const count = r.uint();
  if (count !== block.txHashes.length) throw new Error(`recording codec: ${count} transactions, the block has ${block.txHashes.length}`);
  const txs: TxRecording[] = [];
  for (let i = 0; i < count; i++) txs.push(readTx(c, i, block.txHashes[i]!));
  if (!r.done) throw new Error('recording codec: trailing bytes');
  const recording: BlockRecording = { number: block.number, hash: block.hash, txs, rewards };
  return call ? { ...recording, call } : recording;
}

function word(c: Context): Uint8Array {
  const w = c.words[c.r.uint()];
  if (w === undefined) throw new RangeError('recording codec: no such word');
  return w;
}

function hexWord(c: Context): string {
  const i = c.r.uint();
  if (c.words[i] === undefined) throw new RangeError('recording codec: no such word');
  return (c.hexes[i] ??= bytesToUnprefixedHex(c.words[i]!));
}

function readTx(c: Context, txIndex: number, txHash: Uint8Array): TxRecording {
  const r = c.r;
  const flags = r.u8();
  const txType = r.uint();
  const gasLimit = r.big();
  const intrinsicGas = r.big();
  const gasUsed = r.big();
  const gasUsedBeforeRefund = r.big();
  const refund = r.big();
  const created = new Set<string>();
  for (let n = r.uint(); n > 0; n--) created.add(hexWord(c));
  const selfDestructed = new Set<string>();
  for (let n = r.uint(); n > 0; n--) selfDestructed.add(hexWord(c));
  const frames: CallFrame[] = [];
  for (let n = r.uint(); n > 0; n--) frames.push(readFrame(c, frames));
  return {
    txIndex, txHash, txType, gasLimit, intrinsicGas, gasUsed, gasUsedBeforeRefund, refund, frames,
    state: { accounts: new Map(), selfDestructed, created, eip6780: (flags & EIP6780) !== 0 },
  };
}

function readFrame(c: Context, frames: CallFrame[]): CallFrame {
  const r = c.r;
  const head = r.u8();
  const kind = KINDS[head & 7];
  if (kind === undefined) throw new RangeError('recording codec: no such call kind');
  const index = frames.length;
  const parent = r.uint() - 1;
  if (parent >= index) throw new RangeError('recording codec: a frame before its parent');
  const depth = r.uint();
  const from = word(c);
  const to = head & HAS_TO ? word(c) : undefined;
  const createAddress = head & HAS_CREATE_ADDRESS ? word(c) : undefined;
  const value = r.big();
  const gas = r.big();
  const gasUsed = r.big();
  const input = readInput(c);
  const output = r.bytes();
  const failure = head & HAS_FAILURE ? readFailure(c) : undefined;
  const logs: RecordedLog[] = [];
  if (head & HAS_LOGS) for (let n = r.uint(); n > 0; n--) logs.push(readLog(c));
  const frame: CallFrame = withInput(
    { index, parent, depth, kind, from, to, value, gas, gasUsed, input: NO_INPUT, output, failure, precompile: (head & PRECOMPILE) !== 0, children: [], logs },
    input,
  );
  if (createAddress !== undefined) frame.createAddress = createAddress;
  if (parent >= 0) frames[parent]!.children.push(index);
  return frame;
}

function readInput(c: Context): KeptInput {
  const r = c.r;
  const how = r.uint();
  if (how === INPUT_BYTES) {
    const input = r.bytes();
    if (input.length >= SMALL_INPUT) c.base = input;
    return input;
  }
  const base = c.base;
  if (base === undefined || (how !== INPUT_SAME_AS_BASE && how !== INPUT_PATCHED_BASE)) throw new RangeError('recording codec: a bad input');
  if (how === INPUT_SAME_AS_BASE) return base;
  const patches: Patch[] = [];
  let end = 0;
  for (let n = r.uint(); n > 0; n--) {
    const at = end + r.uint();
    const bytes = r.bytes();
    if (at + bytes.length > base.length) throw new RangeError('recording codec: a patch past its input');
    patches.push({ at, bytes });
    end = at + bytes.length;
  }
  return patched(base, patches);
}

function readFailure(c: Context): Failure {
  const r = c.r;
  const kind = FAILURE_KINDS[r.u8()];
  if (kind === undefined) throw new RangeError('recording codec: no such failure');
  const failure: Record<string, unknown> = { kind };
  for (const [name, type] of FAILURE_FIELDS[kind]) {
    if (type === 'num') failure[name] = r.num();
    else if (type === 'text') failure[name] = r.text();
    else {
      const flag = r.u8();
      if (flag !== FLAG_ABSENT) failure[name] = flag === FLAG_TRUE;
    }
  }
  return failure as unknown as Failure;
}

function readLog(c: Context): RecordedLog {
  const r = c.r;
  const address = word(c);
  const topics: Uint8Array[] = [];
  for (let n = r.uint(); n > 0; n--) topics.push(word(c));
  const data = r.bytes();
  const position = r.uint();
  const index = r.uint() - 1;
  return { address, topics, data, position, index };
}
