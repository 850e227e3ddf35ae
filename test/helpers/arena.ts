// Hand-built recordings for renderer unit tests: a tiny builder over the neutral arena.
import { hexToBytes } from '@ethereumjs/util';
import type { BlockRecording, CallFrame, CallKind, Failure, RecordedLog, TxRecording } from '../../src/trace/types.ts';

export const addr = (byte: number): Uint8Array => new Uint8Array(20).fill(byte);
export const bytes = (hex: string): Uint8Array => hexToBytes(hex as `0x${string}`);

export interface FrameSpec {
  kind?: CallKind;
  from?: Uint8Array;
  to?: Uint8Array | undefined;
  createAddress?: Uint8Array;
  value?: bigint;
  gas?: bigint;
  gasUsed?: bigint;
  input?: string;
  output?: string;
  failure?: Failure;
  precompile?: boolean;
  logs?: Omit<RecordedLog, 'address'>[];
  calls?: FrameSpec[];
}

/** Flattens a nested spec into the arena (depth first, parent before children). */
export function frames(root: FrameSpec): CallFrame[] {
  const out: CallFrame[] = [];
  const add = (spec: FrameSpec, parent: number, depth: number): number => {
    const index = out.length;
    const from = spec.from ?? addr(0xaa);
    const to = 'to' in spec ? spec.to : addr(0xbb);
    const frame: CallFrame = {
      index,
      parent,
      depth,
      kind: spec.kind ?? 'CALL',
      from,
      to,
      value: spec.value ?? 0n,
      gas: spec.gas ?? 1000n,
      gasUsed: spec.gasUsed ?? 100n,
      input: bytes(spec.input ?? '0x'),
      output: bytes(spec.output ?? '0x'),
      failure: spec.failure,
      precompile: spec.precompile ?? false,
      children: [],
      logs: (spec.logs ?? []).map((l) => ({ ...l, address: to ?? from })),
    };
    if (spec.createAddress) frame.createAddress = spec.createAddress;
    out.push(frame);
    for (const child of spec.calls ?? []) frame.children.push(add(child, index, depth + 1));
    return index;
  };
  add(root, -1, 0);
  return out;
}

export function txRecording(root: FrameSpec, extra: Partial<TxRecording> = {}): TxRecording {
  return {
    txIndex: 0,
    txHash: new Uint8Array(32).fill(0x11),
    txType: 2,
    gasLimit: 100000n,
    intrinsicGas: 21000n,
    gasUsed: 50000n,
    gasUsedBeforeRefund: 60000n,
    refund: 10000n,
    frames: frames(root),
    state: { accounts: new Map(), selfDestructed: new Set(), created: new Set(), eip6780: true },
    ...extra,
  };
}

export function blockRecording(txs: TxRecording[], rewards: BlockRecording['rewards'] = []): BlockRecording {
  return { number: 8n, hash: new Uint8Array(32).fill(0x22), txs, rewards };
}
