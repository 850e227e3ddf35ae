// What `record` answers: a file of request lines, or recorded exchanges in any golden layout (their
// requests are answered again), each with the name its request/response files will carry. A line is
// named from what it asks (`0x3.debug_traceBlockByNumber.callTracer`), not from where it stood, so
// that adding a line to the file does not rename every golden after it.
import { readFileSync, statSync } from 'node:fs';
import { GoldenError } from '../errors/goldenError.ts';
import { member, parseWhole, shortText, type JsonNode } from '../compare/jsonText.ts';
import { requestProblem } from '../rpc/dispatch.ts';
import { parseArray, readGolden } from './layouts.ts';

export interface NamedRequest {
  readonly name: string;
  readonly request: string;
}

function isGolden(path: string, text: () => string): boolean {
  if (statSync(path).isDirectory()) return true;
  if (/\.(io|request\.json|response\.json)$/.test(path)) return true;
  return path.endsWith('.json') && text().trimStart()[0] === '[' && parseArray(text(), path, '', false) !== undefined;
}

const SAFE_SEGMENT = /[^A-Za-z0-9_.+-]/g;
/** A name part as it may appear in a file stem. */
const safe = (text: string): string => text.replace(SAFE_SEGMENT, '_');

/** Hashes, addresses and other long hex: only their head is a name. */
const LONG_HEX = /^0x[0-9a-fA-F]{17,}$/;
/** Longer strings (call data, a JavaScript tracer's source) are left out of a name. */
const MAX_WHERE = 18;
const MAX_METHOD = 60;
const MAX_BATCH = 60;
/** Room left in a file name (255 bytes on most systems) for `.N` and `.response.json`. */
const MAX_NAME = 120;
/** A built-in tracer's name (`callTracer`, `4byteTracer`); anything else is a JavaScript tracer's source. */
const PLAIN_TRACER = /^[A-Za-z0-9_]{1,40}$/;

/** A block, transaction or other subject as a name part: `0x3`, `latest`, `0x1a2b3c4d` (a hash, shortened). */
function subject(node: JsonNode | undefined): string | undefined {
  const text = node?.t === 'string' ? node.value : node?.t === 'number' ? node.raw : undefined;
  if (text === undefined || text === '') return undefined;
  // lower case, so that names differing in a hash's letter case stay apart on a case-blind disk
  if (LONG_HEX.test(text)) return text.slice(0, 10).toLowerCase();
  return text.length <= MAX_WHERE ? text : undefined;
}

/** A filter object's range (`0x1-0x5`, `from-0x1`, `to-0x5`) or the block it names (a filter's, or EIP-1898's `{blockHash}`). */
function range(filter: JsonNode): string | undefined {
  const from = subject(member(filter, 'fromBlock'));
  const to = subject(member(filter, 'toBlock'));
  if (from !== undefined && to !== undefined) return `${from}-${to}`;
  if (from !== undefined) return `from-${from}`;
  if (to !== undefined) return `to-${to}`;
  return subject(member(filter, 'blockHash')) ?? subject(member(filter, 'blockNumber'));
}

/** `callTracer.withLog`: the tracer of the first options object after the subject, then its true tracerConfig flags. */
function tracerParts(params: readonly JsonNode[]): string[] {
  const options = params.slice(1).find((p) => p.t === 'object' && (member(p, 'tracer')?.t === 'string' || member(p, 'tracerConfig')?.t === 'object'));
  if (options === undefined) return [];
  const parts: string[] = [];
  const tracer = member(options, 'tracer');
  // a tracer that is not a plain name is a JavaScript tracer's source
  if (tracer?.t === 'string') parts.push(PLAIN_TRACER.test(tracer.value) ? tracer.value : 'js');
  const config = member(options, 'tracerConfig');
  if (config?.t === 'object') {
    for (const [key] of config.entries) {
      const value = member(config, key);
      if (value?.t === 'bool' && value.value && key !== '' && !parts.includes(key)) parts.push(key);
    }
  }
  return parts;
}

/** `0x3.debug_traceBlockByNumber.callTracer.withLog`: what one call asks, read from its request. */
function callName(call: JsonNode): string {
  const method = member(call, 'method');
  if (method?.t !== 'string' || method.value === '') return 'request';
  const params = member(call, 'params');
  const list = params?.t === 'array' ? params.items : [];
  const first = list[0];
  // an object that is not a filter is a call (eth_call, debug_traceCall): its block comes second
  const second = list[1];
  const where = first?.t === 'object' ? (range(first) ?? (second?.t === 'object' ? range(second) : subject(second))) : subject(first);
  return [...(where === undefined ? [] : [where]), method.value.slice(0, MAX_METHOD), ...tracerParts(list)].map(safe).join('.');
}

/** `batch.eth_blockNumber+trace_block`: its methods once each, in order, as many as fit. */
function batchName(calls: readonly JsonNode[]): string {
  const methods: string[] = [];
  for (const call of calls) {
    const method = member(call, 'method');
    if (method?.t === 'string' && method.value !== '' && !methods.includes(method.value)) methods.push(method.value);
  }
  let joined = '';
  for (const method of methods) {
    const next = joined === '' ? method : `${joined}+${method}`;
    // `+more` says the list was cut
    if (next.length > MAX_BATCH) return `batch.${safe(joined === '' ? method.slice(0, MAX_BATCH) : joined)}+more`;
    joined = next;
  }
  return joined === '' ? 'batch' : `batch.${safe(joined)}`;
}

/** The name of one request line, before it is made unique. */
export function requestName(request: string): string {
  const root = parseWhole(request);
  const name = root?.t === 'array' ? batchName(root.items) : root?.t === 'object' ? callName(root) : 'request';
  const cut = name.slice(0, MAX_NAME);
  // a hidden file (a leading dot) is passed over by check's walk; a leading dash reads as an option
  return cut.startsWith('.') || cut.startsWith('-') ? `_${cut}` : cut;
}

/**
 * Names made unique in order: the second and later of a name get `.2`, `.3`, … Names that differ
 * only in letter case count as the same (they would be one file on macOS and Windows).
 */
export function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  const next = new Map<string, number>();
  return names.map((name) => {
    let unique = name;
    let n = next.get(name) ?? 2;
    while (used.has(unique.toLowerCase())) unique = `${name}.${n++}`;
    next.set(name, n);
    used.add(unique.toLowerCase());
    return unique;
  });
}

/** A request-lines file's cases, each named from what it asks (see requestName). */
export function caseNames(lines: readonly string[]): NamedRequest[] {
  const names = uniqueNames(lines.map(requestName));
  return lines.map((request, i) => ({ name: names[i]!, request }));
}

/**
 * Refuses a request line (`where` is `FILE:LINE`) that is not JSON or not a JSON-RPC request: its
 * golden would pin only a parse or envelope error. Blank lines pass (they are no request).
 */
function checkRequestLine(line: string, where: string): void {
  if (line.trim() === '') return;
  const node = parseWhole(line);
  if (node === undefined) {
    const text = line.trim();
    throw new GoldenError(`${where}: not JSON: ${text.length <= 60 ? text : `${text.slice(0, 59)}…`}`);
  }
  const problem = requestProblem(node);
  if (problem !== undefined) throw new GoldenError(`${where}: not a JSON-RPC request (${problem}): ${shortText(line, 60)}`);
}

/** The requests in `path`, in order. Throws GoldenError when it cannot be read. */
export function readRequests(path: string): NamedRequest[] {
  let cached: string | undefined;
  const text = (): string => (cached ??= readFileSync(path, 'utf8'));
  try {
    if (!isGolden(path, text)) {
      const all = text().split(/\r?\n/);
      all.forEach((line, i) => checkRequestLine(line, `${path}:${i + 1}`));
      const lines = all.filter((line) => line.trim() !== '');
      if (lines.length === 0) throw new GoldenError(`${path}: no requests`);
      return caseNames(lines);
    }
  } catch (err) {
    if (err instanceof GoldenError) throw err;
    throw new GoldenError(`cannot read requests ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const set = readGolden(path);
  return [...set.exchanges, ...set.skipped].map(({ name, request }) => ({ name, request }));
}

/**
 * The file stem for a case name: path segments kept (a walk's subfolders), `#N` as `.N`, other
 * characters outside [A-Za-z0-9_.+-] as `_`; no segment may be empty, `.` or `..`.
 */
export function fileStem(name: string): string {
  return name
    .replace(/#(\d+)$/, '.$1')
    .split('/')
    .map((segment) => {
      const clean = safe(segment);
      return clean === '' || clean === '.' || clean === '..' ? '_' : clean;
    })
    .join('/');
}

/** Stems of every request; a GoldenError when two would share files. */
export function fileStems(requests: readonly NamedRequest[]): string[] {
  const stems = requests.map((r) => fileStem(r.name));
  const seen = new Map<string, string>();
  requests.forEach((r, i) => {
    const other = seen.get(stems[i]!);
    if (other !== undefined) throw new GoldenError(`cases ${other} and ${r.name} would both be written as ${stems[i]}.request.json`);
    seen.set(stems[i]!, r.name);
  });
  return stems;
}
