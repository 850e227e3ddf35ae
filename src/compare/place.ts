// Where a difference is, in the words of the answer's shape: the request of a batch, the transaction
// (index and hash), then the frame's path through the call tree (callTracer), the account and field
// (prestateTracer, diff mode's pre/post), the trace's traceAddress (trace_*), the log (receipts,
// eth_getLogs). The request says the shape: its method and tracer. What is left of the path is the
// field. With ABIs, a difference in calldata, a result, a revert or a log is decoded on each side.
// Each place is data (compare/types.ts Place); compare/location.ts words it.
import { storageValue } from '../abi/slots.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { at, callOf, contractOf, type Decoding, eventOf, frameCall, outcomeOf, text, tracePlace } from './shapes.ts';
import type { DecodedPair, Field, Location, PathStep, Place, RequestRef } from './types.ts';

/** Where a difference is, and what its value (or the frame, log or slot it is in) means on each side. */
export interface Placed {
  readonly location: Location;
  readonly decoded?: DecodedPair;
}

/** The two answers (and the request) a difference was found in. */
export interface Sides {
  readonly request: JsonNode | undefined;
  readonly expected: JsonNode | undefined;
  readonly got: JsonNode | undefined;
  /** When an added or removed item shifted the indices: each side's own path, and how far down the walk is. */
  readonly paths?: { readonly expected: readonly PathStep[]; readonly got: readonly PathStep[] };
  readonly depth?: number;
}

const BLOCK_TRACES = new Set(['debug_traceBlockByNumber', 'debug_traceBlockByHash', 'debug_traceBlock', 'debug_traceBadBlock']);
const FLAT_TRACES = new Set(['trace_block', 'trace_transaction', 'trace_filter']);
const REPLAYS = new Set(['trace_replayTransaction', 'trace_call', 'trace_rawTransaction']);
const LOG_LISTS = new Set(['eth_getLogs', 'eth_getFilterLogs', 'eth_getFilterChanges']);

/** Both sides one step down the path (each along its own path where indices shifted). */
function down(s: Sides, step: PathStep): Sides {
  if (s.paths === undefined) return { request: s.request, expected: at(s.expected, step), got: at(s.got, step) };
  const depth = s.depth ?? 0;
  return { ...s, expected: at(s.expected, s.paths.expected[depth] ?? step), got: at(s.got, s.paths.got[depth] ?? step), depth: depth + 1 };
}
const either = (s: Sides, key: string): string | undefined => text(s.expected, key) ?? text(s.got, key);

interface Walked {
  readonly places: Place[];
  readonly rest: readonly PathStep[];
  /** A storage slot's variable, when a layout names it. */
  readonly slotName?: string;
  readonly decoded?: DecodedPair;
}

/** What each side means, when an ABI says and the two differ (the same meaning twice says nothing). */
const pair = (expected: string | undefined, got: string | undefined): DecodedPair | undefined =>
  (expected === undefined && got === undefined) || expected === got ? undefined : { ...(expected === undefined ? {} : { expected }), ...(got === undefined ? {} : { got }) };

const optional = (decoded: DecodedPair | undefined): { decoded?: DecodedPair } => (decoded === undefined ? {} : { decoded });

/** A quantity member (`"0x3"`) as a number; undefined when absent. */
const quantity = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));

/** A transaction or call by its index (and hash, when the answer has it). */
const indexed = (kind: 'tx' | 'call', index: number | undefined, hash: string | undefined): Place => ({ kind, ...(index === undefined ? {} : { index }), ...(hash === undefined ? {} : { hash }) });

/** Down a callTracer frame's `calls`; what differs in the frame itself is decoded on each side. */
function frames(s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  let i = 0;
  while (steps[i] === 'calls' && typeof steps[i + 1] === 'number') {
    s = down(down(s, 'calls'), steps[i + 1]!);
    places.push({ kind: 'frame', call: frameCall(s.expected ?? s.got, d) });
    i += 2;
  }
  const rest = steps.slice(i);
  if (rest[0] === 'logs' && typeof rest[1] === 'number') {
    const logs = down(down(s, 'logs'), rest[1]);
    return { places, rest, ...optional(pair(eventOf(logs.expected, d), eventOf(logs.got, d))) };
  }
  if (rest[0] === 'input') return { places, rest, ...optional(pair(callOf(s.expected, d), callOf(s.got, d))) };
  if (rest[0] === 'output' || rest[0] === 'error' || rest[0] === 'revertReason') {
    return { places, rest, ...optional(pair(outcomeOf(s.expected, d), outcomeOf(s.got, d))) };
  }
  return { places, rest };
}

/** A call tree from its top call down. */
const callTree = (s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked =>
  frames(s, steps, [...places, { kind: 'frame', call: frameCall(s.expected ?? s.got, d) }], d);

/** An account (`0x` and 40 hex digits), by its address and the contract's name. */
const account = (address: string, d: Decoding | undefined): Place => {
  const contract = contractOf(address, d);
  return { kind: 'account', address, ...(contract === undefined ? {} : { contract }) };
};

/** A prestate answer: `pre`/`post` in diff mode, then the account; the field is its member or storage slot (named with a layout). */
function prestate(s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  let i = 0;
  if ((steps[0] === 'pre' || steps[0] === 'post') && typeof steps[1] === 'string') {
    places.push({ kind: 'part', name: steps[0] });
    i = 1;
  }
  const address = steps[i];
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) return { places, rest: steps.slice(i) };
  places.push(account(address, d));
  const rest = steps.slice(i + 1);
  const slot = rest[0] === 'storage' && rest.length === 2 && typeof rest[1] === 'string' ? rest[1] : undefined;
  if (slot === undefined || d?.slots === undefined) return { places, rest };
  const contract = contractOf(address, d);
  const named = d.slots.name(slot, contract === undefined ? undefined : d.decoder.storage(contract));
  if (named === undefined) return { places, rest };
  const values = steps.slice(0, i + 1).reduce<Sides>((side, step) => down(side, step), s);
  const value = (n: JsonNode | undefined): string | undefined => {
    const v = text(at(n, 'storage'), slot);
    return v === undefined || named.type === undefined ? undefined : storageValue(v, named.type);
  };
  return { places, rest, slotName: named.name, ...optional(pair(value(values.expected), value(values.got))) };
}

/** A flat trace: its transaction, then its traceAddress and callee. */
function flatTrace(s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  const trace = s.expected ?? s.got;
  const position = at(trace, 'transactionPosition');
  if (position !== undefined && position.t === 'number') places.push(indexed('tx', Number(position.raw), text(trace, 'transactionHash')));
  else if (text(trace, 'type') === 'reward') places.push({ kind: 'part', name: 'rewards' });
  places.push(tracePlace(trace, d));
  if (steps[0] === 'action' && steps[1] === 'input') {
    return { places, rest: steps, ...optional(pair(callOf(at(s.expected, 'action'), d), callOf(at(s.got, 'action'), d))) };
  }
  if (steps[0] === 'result' && steps[1] === 'output') {
    const out = (n: JsonNode | undefined): string | undefined => outcomeOf(at(n, 'action'), d, text(at(n, 'result'), 'output'));
    return { places, rest: steps, ...optional(pair(out(s.expected), out(s.got))) };
  }
  return { places, rest: steps };
}

/** A replayed transaction (trace_replay*, trace_call): its flat traces and its state diff by account. */
function replayed(s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  const [first, second] = steps;
  if (first === 'trace' && typeof second === 'number') return flatTrace(down(down(s, 'trace'), second), steps.slice(2), places, d);
  if (first === 'stateDiff' && typeof second === 'string') return { places: [...places, { kind: 'part', name: 'stateDiff' }, account(second, d)], rest: steps.slice(2) };
  return { places, rest: steps };
}

/** A receipt: its transaction, then a log by index. */
function receipt(s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  places.push(indexed('tx', quantity(either(s, 'transactionIndex')), either(s, 'transactionHash')));
  if (steps[0] === 'logs' && typeof steps[1] === 'number') {
    const logs = down(down(s, 'logs'), steps[1]);
    places.push({ kind: 'log', index: steps[1] });
    return { places, rest: steps.slice(2), ...optional(pair(eventOf(logs.expected, d), eventOf(logs.got, d))) };
  }
  return { places, rest: steps };
}

function tracerOf(request: JsonNode | undefined, index: number): string | undefined {
  return text(at(at(request, 'params'), index), 'tracer');
}

/** A trace of one transaction or call, by its tracer: a call tree, a prestate, or the rest as the field. */
function traced(tracer: string | undefined, s: Sides, steps: readonly PathStep[], places: Place[], d: Decoding | undefined): Walked {
  if (tracer === 'callTracer') return callTree(s, steps, places, d);
  if (tracer === 'prestateTracer') return prestate(s, steps, places, d);
  return { places, rest: steps };
}

/** The heading and field of the part of one answer (not a batch) below `$.result`. */
function inResult(method: string, s: Sides, steps: readonly PathStep[], d: Decoding | undefined): Walked {
  const [first, second] = steps;
  if (BLOCK_TRACES.has(method) && typeof first === 'number') {
    const tx = down(s, first);
    const places = [indexed('tx', first, either(tx, 'txHash'))];
    if (second !== 'result') return { places, rest: steps.slice(1) };
    return traced(tracerOf(s.request, 1), down(tx, 'result'), steps.slice(2), places, d);
  }
  if (method === 'debug_traceTransaction' || method === 'debug_traceCall') {
    const param = at(at(s.request, 'params'), 0);
    const hash = param?.t === 'string' ? param.value : undefined;
    const places: Place[] = [method === 'debug_traceCall' ? { kind: 'call' } : { kind: 'txHash', ...(hash === undefined ? {} : { hash }) }];
    return traced(tracerOf(s.request, method === 'debug_traceCall' ? 2 : 1), s, steps, places, d);
  }
  if (FLAT_TRACES.has(method) && typeof first === 'number') return flatTrace(down(s, first), steps.slice(1), [], d);
  if ((method === 'trace_replayBlockTransactions' || method === 'trace_callMany') && typeof first === 'number') {
    const tx = down(s, first);
    return replayed(tx, steps.slice(1), [indexed(method === 'trace_callMany' ? 'call' : 'tx', first, either(tx, 'transactionHash'))], d);
  }
  if (REPLAYS.has(method)) return replayed(s, steps, [], d);
  if (method === 'eth_getBlockReceipts' && typeof first === 'number') return receipt(down(s, first), steps.slice(1), [], d);
  if (method === 'eth_getTransactionReceipt') return receipt(s, steps, [], d);
  if (LOG_LISTS.has(method) && typeof first === 'number') {
    const log = down(s, first);
    const tx = quantity(either(log, 'transactionIndex'));
    const place: Place = { kind: 'log', index: first, ...(tx === undefined ? {} : { tx, logIndex: quantity(either(log, 'logIndex')) ?? 0 }) };
    return { places: [place], rest: steps.slice(1), ...optional(pair(eventOf(log.expected, d), eventOf(log.got, d))) };
  }
  if ((method === 'eth_getBlockByNumber' || method === 'eth_getBlockByHash') && first === 'transactions' && typeof second === 'number') {
    return { places: [{ kind: 'part', name: 'block' }, { kind: 'tx', index: second }], rest: steps.slice(2) };
  }
  return { places: [{ kind: 'part', name: 'result' }], rest: steps };
}

/** Methods whose first parameter names a transaction by its hash; most others' names a block. */
const BY_TX = new Set(['debug_traceTransaction', 'trace_transaction', 'trace_replayTransaction', 'eth_getTransactionReceipt', 'eth_getTransactionByHash', 'trace_get']);
const BY_BLOCK = new Set([...BLOCK_TRACES, 'trace_block', 'trace_replayBlockTransactions', 'eth_getBlockReceipts', 'eth_getBlockByNumber', 'eth_getBlockByHash']);

/** The request's method and the block or transaction its first parameter names. */
function requestRef(request: JsonNode | undefined): RequestRef | undefined {
  const method = text(request, 'method');
  if (method === undefined) return undefined;
  const param = at(at(request, 'params'), 0);
  const named = param?.t === 'string' ? param.value : undefined;
  if (named !== undefined && BY_TX.has(method)) return { method, tx: named };
  if (named !== undefined && BY_BLOCK.has(method)) return { method, block: named };
  return { method };
}

/** The location of a difference in the whole answer (no answer on a side, or not JSON): the request alone. */
export function wholeLocation(request: JsonNode | undefined): Location {
  const ref = requestRef(request);
  return { steps: [], ...(ref === undefined ? {} : { request: ref }), places: [{ kind: 'part', name: 'response' }], field: { steps: [], whole: true } };
}

/** Where the difference at `steps` is: its heading and field, decoded where ABIs allow; `keyOrder`: only its keys' order differs. */
export function place(sides: Sides, steps: readonly PathStep[], decoding?: Decoding, keyOrder = false): Placed {
  let s: Sides = sides.paths === undefined ? sides : { ...sides, depth: 0 };
  let rest = steps;
  const prefix: Place[] = [];
  if (s.request?.t === 'array' && typeof rest[0] === 'number') {
    // a batch: the answer's items follow the requests' order (dispatch answers in order)
    const request = s.request.items[rest[0]];
    const method = text(request, 'method');
    prefix.push({ kind: 'request', index: rest[0], ...(method === undefined ? {} : { method }) });
    s = { ...down(s, rest[0]), request };
    rest = rest.slice(1);
  }
  const method = text(s.request, 'method') ?? '';
  const walked: Walked =
    rest[0] === 'result' ? inResult(method, down(s, 'result'), rest.slice(1), decoding)
    : rest[0] === 'error' ? { places: [{ kind: 'part', name: 'error' }], rest: rest.slice(1) }
    : { places: [{ kind: 'part', name: 'response' }], rest };
  const places = [...prefix, ...walked.places];
  if (places.length === 0) places.push({ kind: 'part', name: 'result' });
  const field: Field = { steps: walked.rest, ...(walked.slotName === undefined ? {} : { slotName: walked.slotName }), ...(keyOrder ? { keyOrder: true as const } : {}) };
  const ref = requestRef(s.request);
  return { location: { steps, ...(ref === undefined ? {} : { request: ref }), places, field }, ...optional(walked.decoded) };
}
