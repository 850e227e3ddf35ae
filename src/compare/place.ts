// Where a difference is, in the words of the answer's shape: the request of a batch, the transaction
// (index and hash), then the frame's path through the call tree (callTracer), the account and field
// (prestateTracer, diff mode's pre/post), the trace's traceAddress (trace_*), the log (receipts,
// eth_getLogs). The request says the shape: its method and tracer. What is left of the path is the
// field. With ABIs, a difference in calldata, a result, a revert or a log is decoded on each side.
import { storageValue } from '../abi/slots.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import type { PathStep } from './types.ts';
import { at, callOf, type Decoding, eventOf, frameLabel, outcomeOf, shortHash, text, traceLabel, who } from './shapes.ts';
import type { DecodedPair } from './types.ts';

export interface Placed {
  readonly where: string;
  readonly field: string;
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

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `logs[0].data`, `storage[0x…01]` (hex keys bare): a path below a heading, as people read it. */
export function relative(steps: readonly PathStep[], bareHex = true): string {
  let out = '';
  for (const s of steps) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (IDENTIFIER.test(s)) out += `${out === '' ? '' : '.'}${s}`;
    else out += bareHex && /^0x[0-9a-fA-F]+$/.test(s) ? `[${s}]` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** `$.result[0].calls[1]`, `$.post["0x…"]`: the JSON path `--ignore` takes. */
export const jsonPath = (steps: readonly PathStep[]): string => `$${steps.length === 0 ? '' : relative(steps, false).replace(/^(?=[A-Za-z_$])/, '.')}`;

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
  readonly heading: string[];
  readonly rest: readonly PathStep[];
  /** The field when the path below the heading is not its best name (a named storage slot). */
  readonly field?: string;
  readonly decoded?: DecodedPair;
}

/** What each side means, when an ABI says and the two differ (the same meaning twice says nothing). */
const pair = (expected: string | undefined, got: string | undefined): DecodedPair | undefined =>
  (expected === undefined && got === undefined) || expected === got ? undefined : { ...(expected === undefined ? {} : { expected }), ...(got === undefined ? {} : { got }) };

/** Down a callTracer frame's `calls`; what differs in the frame itself is decoded on each side. */
function frames(s: Sides, steps: readonly PathStep[], heading: string[], d: Decoding | undefined): Walked {
  let i = 0;
  while (steps[i] === 'calls' && typeof steps[i + 1] === 'number') {
    s = down(down(s, 'calls'), steps[i + 1]!);
    heading.push(frameLabel(s.expected ?? s.got, d));
    i += 2;
  }
  const rest = steps.slice(i);
  if (rest[0] === 'logs' && typeof rest[1] === 'number') {
    const logs = down(down(s, 'logs'), rest[1]);
    return { heading, rest, ...optional(pair(eventOf(logs.expected, d), eventOf(logs.got, d))) };
  }
  if (rest[0] === 'input') return { heading, rest, ...optional(pair(callOf(s.expected, d), callOf(s.got, d))) };
  if (rest[0] === 'output' || rest[0] === 'error' || rest[0] === 'revertReason') {
    return { heading, rest, ...optional(pair(outcomeOf(s.expected, d), outcomeOf(s.got, d))) };
  }
  return { heading, rest };
}

const optional = (decoded: DecodedPair | undefined): { decoded?: DecodedPair } => (decoded === undefined ? {} : { decoded });

/** A prestate answer: `pre`/`post` in diff mode, then the account; the field is its member or storage slot (named with a layout). */
function prestate(s: Sides, steps: readonly PathStep[], heading: string[], d: Decoding | undefined): Walked {
  let i = 0;
  if ((steps[0] === 'pre' || steps[0] === 'post') && typeof steps[1] === 'string') {
    heading.push(steps[0]);
    i = 1;
  }
  const account = steps[i];
  if (typeof account !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(account)) return { heading, rest: steps.slice(i) };
  heading.push(who(account, d));
  const rest = steps.slice(i + 1);
  const slot = rest[0] === 'storage' && rest.length === 2 && typeof rest[1] === 'string' ? rest[1] : undefined;
  if (slot === undefined || d?.slots === undefined) return { heading, rest };
  const contract = d.labels.get(account.toLowerCase());
  const named = d.slots.name(slot, contract === undefined ? undefined : d.decoder.storage(contract));
  if (named === undefined) return { heading, rest };
  const values = steps.slice(0, i + 1).reduce<Sides>((side, step) => down(side, step), s);
  const value = (n: JsonNode | undefined): string | undefined => {
    const v = text(at(n, 'storage'), slot);
    return v === undefined || named.type === undefined ? undefined : storageValue(v, named.type);
  };
  return { heading, rest, field: `${named.name}  (storage[${slot}])`, ...optional(pair(value(values.expected), value(values.got))) };
}

/** A flat trace: its transaction, then its traceAddress and callee. */
function flatTrace(s: Sides, steps: readonly PathStep[], heading: string[], d: Decoding | undefined): Walked {
  const trace = s.expected ?? s.got;
  const position = at(trace, 'transactionPosition');
  const hash = text(trace, 'transactionHash');
  if (position !== undefined && position.t === 'number') heading.push(`tx ${position.raw}${hash === undefined ? '' : ` (${shortHash(hash)})`}`);
  else if (text(trace, 'type') === 'reward') heading.push('rewards');
  heading.push(traceLabel(trace, d));
  if (steps[0] === 'action' && steps[1] === 'input') {
    return { heading, rest: steps, ...optional(pair(callOf(at(s.expected, 'action'), d), callOf(at(s.got, 'action'), d))) };
  }
  if (steps[0] === 'result' && steps[1] === 'output') {
    const out = (n: JsonNode | undefined): string | undefined => outcomeOf(at(n, 'action'), d, text(at(n, 'result'), 'output'));
    return { heading, rest: steps, ...optional(pair(out(s.expected), out(s.got))) };
  }
  return { heading, rest: steps };
}

/** A replayed transaction (trace_replay*, trace_call): its flat traces and its state diff by account. */
function replayed(s: Sides, steps: readonly PathStep[], heading: string[], d: Decoding | undefined): Walked {
  const [first, second] = steps;
  if (first === 'trace' && typeof second === 'number') return flatTrace(down(down(s, 'trace'), second), steps.slice(2), heading, d);
  if (first === 'stateDiff' && typeof second === 'string') return { heading: [...heading, 'stateDiff', who(second, d)], rest: steps.slice(2) };
  return { heading, rest: steps };
}

/** A receipt: its transaction, then a log by index. */
function receipt(s: Sides, steps: readonly PathStep[], heading: string[], d: Decoding | undefined): Walked {
  const index = either(s, 'transactionIndex');
  const hash = either(s, 'transactionHash');
  heading.push(`tx ${index === undefined ? '?' : Number(index)}${hash === undefined ? '' : ` (${shortHash(hash)})`}`);
  if (steps[0] === 'logs' && typeof steps[1] === 'number') {
    const logs = down(down(s, 'logs'), steps[1]);
    heading.push(`log ${steps[1]}`);
    return { heading, rest: steps.slice(2), ...optional(pair(eventOf(logs.expected, d), eventOf(logs.got, d))) };
  }
  return { heading, rest: steps };
}

function tracerOf(request: JsonNode | undefined, index: number): string | undefined {
  return text(at(at(request, 'params'), index), 'tracer');
}

/** The heading and field of the part of one answer (not a batch) below `$.result`. */
function inResult(method: string, s: Sides, steps: readonly PathStep[], d: Decoding | undefined): Walked {
  const [first, second] = steps;
  if (BLOCK_TRACES.has(method) && typeof first === 'number') {
    const tx = down(s, first);
    const hash = either(tx, 'txHash');
    const heading = [`tx ${first}${hash === undefined ? '' : ` (${shortHash(hash)})`}`];
    if (second !== 'result') return { heading, rest: steps.slice(1) };
    const tracer = tracerOf(s.request, 1);
    const inner = down(tx, 'result');
    if (tracer === 'callTracer') return frames(inner, steps.slice(2), [...heading, frameLabel(inner.expected ?? inner.got, d)], d);
    if (tracer === 'prestateTracer') return prestate(inner, steps.slice(2), heading, d);
    return { heading, rest: steps.slice(2) };
  }
  if (method === 'debug_traceTransaction' || method === 'debug_traceCall') {
    const param = at(at(s.request, 'params'), 0);
    const hash = param?.t === 'string' ? param.value : undefined;
    const heading = [method === 'debug_traceCall' ? 'call' : `tx ${hash === undefined ? '?' : shortHash(hash)}`];
    const tracer = tracerOf(s.request, method === 'debug_traceCall' ? 2 : 1);
    if (tracer === 'callTracer') return frames(s, steps, [...heading, frameLabel(s.expected ?? s.got, d)], d);
    if (tracer === 'prestateTracer') return prestate(s, steps, heading, d);
    return { heading, rest: steps };
  }
  if (FLAT_TRACES.has(method) && typeof first === 'number') return flatTrace(down(s, first), steps.slice(1), [], d);
  if ((method === 'trace_replayBlockTransactions' || method === 'trace_callMany') && typeof first === 'number') {
    const tx = down(s, first);
    const hash = either(tx, 'transactionHash');
    return replayed(tx, steps.slice(1), [`${method === 'trace_callMany' ? 'call' : 'tx'} ${first}${hash === undefined ? '' : ` (${shortHash(hash)})`}`], d);
  }
  if (REPLAYS.has(method)) return replayed(s, steps, [], d);
  if (method === 'eth_getBlockReceipts' && typeof first === 'number') return receipt(down(s, first), steps.slice(1), [], d);
  if (method === 'eth_getTransactionReceipt') return receipt(s, steps, [], d);
  if (LOG_LISTS.has(method) && typeof first === 'number') {
    const log = down(s, first);
    const position = either(log, 'transactionIndex');
    const heading = [`log ${first}${position === undefined ? '' : ` (tx ${Number(position)}, logIndex ${Number(either(log, 'logIndex') ?? 0)})`}`];
    return { heading, rest: steps.slice(1), ...optional(pair(eventOf(log.expected, d), eventOf(log.got, d))) };
  }
  if ((method === 'eth_getBlockByNumber' || method === 'eth_getBlockByHash') && first === 'transactions' && typeof second === 'number') {
    return { heading: [`block › tx ${second}`], rest: steps.slice(2) };
  }
  return { heading: ['result'], rest: steps };
}

/** Where the difference at `steps` is: its heading and field, decoded where ABIs allow. */
export function place(sides: Sides, steps: readonly PathStep[], decoding?: Decoding): Placed {
  let s: Sides = sides.paths === undefined ? sides : { ...sides, depth: 0 };
  let rest = steps;
  const prefix: string[] = [];
  if (s.request?.t === 'array' && typeof rest[0] === 'number') {
    // a batch: the answer's items follow the requests' order (dispatch answers in order)
    const request = s.request.items[rest[0]];
    prefix.push(`request ${rest[0]}${text(request, 'method') === undefined ? '' : ` (${text(request, 'method')})`}`);
    s = { ...down(s, rest[0]), request };
    rest = rest.slice(1);
  }
  const method = text(s.request, 'method') ?? '';
  const walked: Walked =
    rest[0] === 'result' ? inResult(method, down(s, 'result'), rest.slice(1), decoding)
    : rest[0] === 'error' ? { heading: ['error'], rest: rest.slice(1) }
    : { heading: ['response'], rest };
  const heading = [...prefix, ...walked.heading];
  if (heading.length === 0) heading.push('result');
  const field = walked.field ?? (walked.rest.length === 0 ? '(the value itself)' : relative(walked.rest));
  return { where: heading.join(' › '), field, ...(walked.decoded === undefined ? {} : { decoded: walked.decoded }) };
}
