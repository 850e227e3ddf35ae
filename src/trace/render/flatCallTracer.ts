// go-ethereum's flatCallTracer (eth/tracers/native/call_flat.go, gen_flatcallaction_json.go,
// gen_flatcallresult_json.go), behind --all-tracers: the callTracer frames of one transaction
// (callTracer.ts gethFrame) flattened depth first into Parity-style traces (flatWalk.ts), with
// go-ethereum's own key order and omissions. No reward traces: it traces one transaction.
import { Type } from '@sinclair/typebox';
import { hexBytes } from '../../encoding/hex.ts';
import { LazyArray } from '../../encoding/lazyJson.ts';
import { ARENA_ONLY, type TracerEntry } from '../tracerEntry.ts';
import type { BlockRecording, CallFrame, TxRecording } from '../types.ts';
import { type GethFrame, gethFrame } from './callTracer.ts';
import { walkFlat } from './flatWalk.ts';

export interface FlatCallTracerConfig {
  readonly convertParityErrors?: boolean;
  readonly includePrecompiles?: boolean;
}

/** flatCallAction: every key omitempty, in gen_flatcallaction_json.go order. */
export interface FlatActionJson {
  address?: string;
  balance?: string;
  callType?: string;
  creationMethod?: string;
  from?: string;
  gas?: string;
  init?: string;
  input?: string;
  refundAddress?: string;
  to?: string;
  value?: string;
}

export interface FlatResultJson {
  address?: string;
  code?: string;
  gasUsed?: string;
  output?: string;
}

/** flatCallFrame: the context keys are never omitted (null and 0 without a block, as debug_traceCall). */
export interface FlatCallFrameJson {
  action: FlatActionJson;
  blockHash: string | null;
  blockNumber: number;
  error?: string;
  result?: FlatResultJson;
  subtraces: number;
  traceAddress: number[];
  transactionHash: string | null;
  transactionPosition: number;
  type: 'call' | 'create' | 'suicide';
}

// Unknown keys are ignored, as json.Unmarshal into flatCallTracerConfig does (go-ethereum's own
// simple_onlytop case passes callTracer's onlyTopCall, which the flat tracer does not forward).
const configSchema = Type.Object(
  { convertParityErrors: Type.Optional(Type.Boolean()), includePrecompiles: Type.Optional(Type.Boolean()) },
  { additionalProperties: true },
);

// call_flat.go parityErrorMapping, then parityErrorMappingStartingWith (disjoint prefixes)
const PARITY_ERRORS = new Map([
  ['contract creation code storage out of gas', 'Out of gas'],
  ['out of gas', 'Out of gas'],
  ['gas uint64 overflow', 'Out of gas'],
  ['max code size exceeded', 'Out of gas'],
  ['invalid jump destination', 'Bad jump destination'],
  ['execution reverted', 'Reverted'],
  ['return data out of bounds', 'Out of bounds'],
  ['stack limit reached 1024 (1023)', 'Out of stack'],
  ['precompiled failed', 'Built-in failed'],
  ['invalid input length', 'Built-in failed'],
]);
const PARITY_ERROR_PREFIXES: readonly [string, string][] = [
  ['out of gas:', 'Out of gas'],
  ['invalid opcode:', 'Bad instruction'],
  ['stack underflow', 'Stack underflow'],
];

/** call_flat.go convertErrorToParity; an error it has no word for stays go-ethereum's. */
export function parityWords(error: string): string {
  const exact = PARITY_ERRORS.get(error);
  if (exact !== undefined) return exact;
  return PARITY_ERROR_PREFIXES.find(([prefix]) => error.startsWith(prefix))?.[1] ?? error;
}

function flatFrame(g: GethFrame): Pick<FlatCallFrameJson, 'action' | 'result' | 'type'> {
  switch (g.type) {
    case 'CREATE':
    case 'CREATE2': {
      const result: FlatResultJson = {};
      if (g.to !== undefined) result.address = g.to;
      result.code = g.output ?? '0x';
      result.gasUsed = g.gasUsed;
      return { action: { creationMethod: g.type.toLowerCase(), from: g.from, gas: g.gas, init: g.input, value: g.value! }, result, type: 'create' };
    }
    case 'SELFDESTRUCT': {
      const action: FlatActionJson = { address: g.from };
      if (g.value !== undefined) action.balance = g.value;
      if (g.to !== undefined) action.refundAddress = g.to;
      return { action, result: undefined, type: 'suicide' };
    }
    default: {
      const action: FlatActionJson = { callType: g.type.toLowerCase(), from: g.from, gas: g.gas, input: g.input };
      if (g.to !== undefined) action.to = g.to;
      // call_flat.go OnEnter: a child call has a value, zero for a STATICCALL
      action.value = g.value ?? '0x0';
      return { action, result: { gasUsed: g.gasUsed, output: g.output ?? '0x' }, type: 'call' };
    }
  }
}

function* flatTraces(tx: TxRecording, config: FlatCallTracerConfig, block: BlockRecording): Generator<FlatCallFrameJson> {
  // call_flat.go OnExit: a CALL or STATICCALL into a precompile is dropped unless includePrecompiles
  const kept = (c: number): boolean => {
    const child = tx.frames[c]!;
    return !(child.precompile && (child.kind === 'CALL' || child.kind === 'STATICCALL'));
  };
  const childrenOf = config.includePrecompiles === true ? (f: CallFrame) => f.children : (f: CallFrame) => f.children.filter(kept);
  for (const { index, traceAddress, children } of walkFlat(tx, childrenOf)) {
    const g = gethFrame(tx, index);
    const { action, result, type } = flatFrame(g);
    const out: FlatCallFrameJson = {
      action,
      // fillCallFrameFromContext: debug_traceCall's tracer has no block or transaction
      blockHash: block.call === true ? null : hexBytes(block.hash),
      blockNumber: block.call === true ? 0 : Number(block.number),
    } as FlatCallFrameJson;
    if (g.error !== undefined) out.error = config.convertParityErrors === true ? parityWords(g.error) : g.error;
    // flatFromNested: only a revert keeps its result
    if (result !== undefined && (g.error === undefined || g.error === 'execution reverted')) out.result = result;
    out.subtraces = children.length;
    out.traceAddress = traceAddress;
    out.transactionHash = block.call === true ? null : hexBytes(tx.txHash);
    out.transactionPosition = block.call === true ? 0 : tx.txIndex;
    out.type = type;
    yield out;
  }
}

export function renderFlatCallTracer(tx: TxRecording, config: FlatCallTracerConfig, block: BlockRecording): LazyArray<FlatCallFrameJson> {
  return new LazyArray(() => flatTraces(tx, config, block));
}

export const flatCallTracer: TracerEntry<FlatCallTracerConfig> = {
  name: 'flatCallTracer',
  needs: () => ARENA_ONLY,
  configSchema,
  optIn: true,
  render: renderFlatCallTracer,
};
