// A block's frames-only recording (trace/types.ts BlockRecording, its StateLog without accounts) as
// compact bytes: what the load keeps of each block in memory and in the replay snapshot, read back
// by decodeRecording.ts. The block's own facts (number, hash, transaction hashes) are not in it: the
// chain holds them. Layout (`uint` an unsigned LEB128 integer; `num` a number, `big` a bigint
// (bytes.ts); `bytes` a uint length and the bytes; `ref` the uint index of a word):
//
//   u8 VERSION  u8 flags (bit 0: a traced call)
//   uint words  (bytes)…         every address and log topic, once, in the order first used
//   uint rewards  (ref author  u8 kind (0 block, 1 uncle)  big value)…
//   uint txs  tx…
//   tx:      u8 flags (EIP6780)  uint type  big gasLimit  big intrinsicGas  big gasUsed
//            big gasUsedBeforeRefund  big refund  uint n  ref created…  uint n  ref selfDestructed…
//            uint frames  frame…
//   frame:   u8 head (bits 0-2: KINDS; HAS_TO, HAS_CREATE_ADDRESS, PRECOMPILE, HAS_FAILURE, HAS_LOGS)
//            uint parent+1  uint depth  ref from  [ref to]  [ref createAddress]  big value  big gas
//            big gasUsed  input  bytes output  [failure]  [uint logs  log…]
//   input:   uint INPUT_BYTES bytes | uint INPUT_SAME_AS_BASE | uint INPUT_PATCHED_BASE uint n (uint gap bytes)…
//            the base is the block's last input of SMALL_INPUT bytes or more written whole; a patch
//            starts `gap` bytes after the end of the one before (trace/inputPatches.ts)
//   failure: u8 kind (FAILURE_KINDS)  its FAILURE_FIELDS in order (num, text, or u8 FLAG_*)
//   log:     ref address  uint n  ref topic…  bytes data  uint position  uint index+1
//
// A frame's index and children and a transaction's index follow from the order; its hash comes
// from the block.
import { equalsBytes, hexToBytes } from '@ethereumjs/util';
import { patchesFrom, SMALL_INPUT } from '../trace/inputPatches.ts';
import type { BlockRecording, CallFrame, Failure, RecordedLog, TxRecording } from '../trace/types.ts';
import { ByteWriter } from './bytes.ts';
import {
  EIP6780, FAILURE_CODE, FAILURE_FIELDS, FLAG_ABSENT, FLAG_FALSE, FLAG_TRUE, HAS_CREATE_ADDRESS, HAS_FAILURE, HAS_LOGS, HAS_TO,
  INPUT_BYTES, INPUT_PATCHED_BASE, INPUT_SAME_AS_BASE, KIND_CODE, PRECOMPILE, VERSION,
} from './layout.ts';

/** The words of one recording: each distinct address or topic once, found by a hash of its bytes. */
class Words {
  /** Hash → the last word of that hash. */
  private readonly last = new Map<number, number>();
  /** Per word, the one before it of the same hash, or -1. */
  private readonly before: number[] = [];
  readonly list: Uint8Array[] = [];

  ref(bytes: Uint8Array): number {
    // FNV-1a of the last eight bytes, where addresses, hashes and padded words differ
    const n = bytes.length;
    let h = 0x811c9dc5 ^ n;
    for (let i = n > 8 ? n - 8 : 0; i < n; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
    const last = this.last.get(h) ?? -1;
    for (let i = last; i >= 0; i = this.before[i]!) if (equalsBytes(this.list[i]!, bytes)) return i;
    const i = this.list.push(bytes) - 1;
    this.before.push(last);
    this.last.set(h, i);
    return i;
  }
}

// reused by every call (encoding is synchronous); the result is copied out
const body = new ByteWriter();
const out = new ByteWriter();

/** The bytes of `recording`, which must have been made without state (its StateLog has no accounts). */
export function encodeRecording(recording: BlockRecording): Uint8Array {
  body.reset();
  const words = new Words();
  const inputs: Inputs = { base: undefined };
  body.uint(recording.rewards.length);
  for (const r of recording.rewards) {
    body.uint(words.ref(r.author));
    body.u8(r.kind === 'block' ? 0 : 1);
    body.big(r.value);
  }
  body.uint(recording.txs.length);
  for (const tx of recording.txs) writeTx(tx, words, inputs);
  out.reset();
  out.u8(VERSION);
  out.u8(recording.call === true ? 1 : 0);
  out.uint(words.list.length);
  for (const w of words.list) out.bytes(w);
  out.raw(body.written());
  return out.take();
}

function writeTx(tx: TxRecording, words: Words, inputs: Inputs): void {
  if (tx.state.accounts.size > 0) throw new Error('recording codec: only a recording without state is encoded');
  body.u8(tx.state.eip6780 ? EIP6780 : 0);
  body.uint(tx.txType);
  body.big(tx.gasLimit);
  body.big(tx.intrinsicGas);
  body.big(tx.gasUsed);
  body.big(tx.gasUsedBeforeRefund);
  body.big(tx.refund);
  writeSet(tx.state.created, words);
  writeSet(tx.state.selfDestructed, words);
  body.uint(tx.frames.length);
  for (const frame of tx.frames) writeFrame(frame, words, inputs);
}

function writeSet(set: ReadonlySet<string>, words: Words): void {
  body.uint(set.size);
  for (const hex of set) body.uint(words.ref(hexToBytes(`0x${hex}`)));
}

function writeFrame(f: CallFrame, words: Words, inputs: Inputs): void {
  let head = KIND_CODE.get(f.kind)!;
  if (f.to !== undefined) head |= HAS_TO;
  if (f.createAddress !== undefined) head |= HAS_CREATE_ADDRESS;
  if (f.precompile) head |= PRECOMPILE;
  if (f.failure !== undefined) head |= HAS_FAILURE;
  if (f.logs.length > 0) head |= HAS_LOGS;
  body.u8(head);
  body.uint(f.parent + 1);
  body.uint(f.depth);
  body.uint(words.ref(f.from));
  if (f.to !== undefined) body.uint(words.ref(f.to));
  if (f.createAddress !== undefined) body.uint(words.ref(f.createAddress));
  body.big(f.value);
  body.big(f.gas);
  body.big(f.gasUsed);
  writeInput(f.input, inputs);
  body.bytes(f.output);
  if (f.failure !== undefined) writeFailure(f.failure);
  if (f.logs.length > 0) {
    body.uint(f.logs.length);
    for (const log of f.logs) writeLog(log, words);
  }
}

interface Inputs {
  base: Uint8Array | undefined;
}

function writeInput(input: Uint8Array, inputs: Inputs): void {
  const base = inputs.base;
  if (input.length >= SMALL_INPUT && base !== undefined && base.length === input.length) {
    const patches = patchesFrom(base, input);
    if (patches !== undefined && patches.length === 0) {
      body.uint(INPUT_SAME_AS_BASE);
      return;
    }
    if (patches !== undefined) {
      body.uint(INPUT_PATCHED_BASE);
      body.uint(patches.length);
      let end = 0;
      for (const p of patches) {
        body.uint(p.at - end);
        body.bytes(p.bytes);
        end = p.at + p.bytes.length;
      }
      return;
    }
  }
  body.uint(INPUT_BYTES);
  body.bytes(input);
  if (input.length >= SMALL_INPUT) inputs.base = input;
}

function writeFailure(failure: Failure): void {
  body.u8(FAILURE_CODE.get(failure.kind)!);
  const fields = failure as unknown as Record<string, unknown>;
  for (const [name, type] of FAILURE_FIELDS[failure.kind]) {
    const value = fields[name];
    if (type === 'num') body.num(value as number);
    else if (type === 'text') body.text(value as string);
    else body.u8(value === undefined ? FLAG_ABSENT : value === true ? FLAG_TRUE : FLAG_FALSE);
  }
}

function writeLog(log: RecordedLog, words: Words): void {
  body.uint(words.ref(log.address));
  body.uint(log.topics.length);
  for (const topic of log.topics) body.uint(words.ref(topic));
  body.bytes(log.data);
  body.uint(log.position);
  body.uint(log.index + 1);
}
