// Readers for the three layouts of recorded exchanges, all giving `{name, file, request, response}`:
//   - execution-apis `.io` files: `>>` request line, `<<` response line, `//` comments (the reader
//     of hive's rpc-compat simulator: lines trimmed, the `<<` body is the HTTP body trimmed);
//   - `NAME.request.json` + `NAME.response.json` pairs (the anvil corpus): the exact bodies; the
//     response may be `NAME.response.json.gz` instead, gzip-compressed (a recording of tens of MB);
//   - a JSON array of `{request, response}` objects (Erigon's rpc-tests `test_NN.json`).
// A directory is walked recursively; files of no layout (a fixture, a README) are passed over.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { basename, join } from 'node:path';
import { GoldenError } from '../errors/goldenError.ts';
import { compactJson, member, parseWhole, type JsonNode } from '../compare/jsonText.ts';

/**
 * Where an exchange was read from: `pair` files are the ones `record` writes (and `check --update`
 * may rewrite); `packed` is a pair whose response is gzip-compressed (another client's recording).
 */
export type Layout = 'io' | 'pair' | 'packed' | 'array';

export interface Exchange {
  /** The golden's path below the argument without its layout suffix; `#N` for the Nth of a file. */
  readonly name: string;
  /** The file it was read from. */
  readonly file: string;
  readonly layout: Layout;
  /** The GOLDEN argument (a file or a directory) it was found under. */
  readonly golden: string;
  /** The request body, sent as is. */
  readonly request: string;
  /** The recorded response body; undefined when the client answered nothing (a notification). */
  readonly response: string | undefined;
}

/** A recorded request without a recorded answer (Erigon's `"metadata": {"latest": true}` cases). */
export interface Skipped {
  readonly name: string;
  readonly file: string;
  readonly golden: string;
  readonly request: string;
  readonly reason: string;
}

export interface GoldenSet {
  readonly exchanges: readonly Exchange[];
  readonly skipped: readonly Skipped[];
}

/** What one file holds, before `readGolden` names the argument it was found under. */
export interface FileSet {
  readonly exchanges: readonly Omit<Exchange, 'golden'>[];
  readonly skipped: readonly Omit<Skipped, 'golden'>[];
}

const REQUEST = '.request.json';
const RESPONSE = '.response.json';
const PACKED = '.response.json.gz';

const numbered = <T extends { name: string }>(items: T[]): T[] =>
  items.length <= 1 ? items : items.map((item, i) => ({ ...item, name: `${item.name}#${i + 1}` }));

/** An `.io` file's exchanges; a `>>` not followed by `<<` expects no answer. */
export function parseIo(text: string, file: string, name: string): Omit<Exchange, 'golden'>[] {
  const out: { name: string; file: string; layout: 'io'; request: string; response: string | undefined }[] = [];
  let open: (typeof out)[number] | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) return;
    if (line.startsWith('>>')) {
      open = { name, file, layout: 'io', request: line.slice(2).trim(), response: undefined };
      out.push(open);
    } else if (line.startsWith('<<') && open !== undefined) {
      open.response = line.slice(2).trim();
      open = undefined;
    } else {
      const what = line.startsWith('<<') ? 'a "<<" line without a ">>" line before it' : 'a line that is not ">>", "<<" or "//"';
      throw new GoldenError(`${file}:${i + 1}: ${what}`);
    }
  });
  if (out.length === 0) throw new GoldenError(`${file}: no ">>" request line`);
  return numbered(out);
}

const answered = (response: JsonNode | undefined): boolean =>
  response !== undefined && (response.t === 'array' || member(response, 'result') !== undefined || member(response, 'error') !== undefined);

/**
 * A JSON array of `{request, response}` objects; undefined when the text is not such an array and
 * `strict` is false (a walk passes over other JSON files). Values are compacted, escapes kept.
 */
export function parseArray(text: string, file: string, name: string, strict: boolean): FileSet | undefined {
  const root = parseWhole(text);
  const first = root?.t === 'array' ? root.items[0] : undefined;
  if (root?.t !== 'array' || first === undefined || member(first, 'request') === undefined) {
    if (!strict) return undefined;
    throw new GoldenError(`${file}: ${root === undefined ? 'not valid JSON' : 'not a JSON array of {"request", "response"} objects'}`);
  }
  const items = numbered(root.items.map((item, i) => ({ name, item, i })));
  const exchanges: Omit<Exchange, 'golden'>[] = [];
  const skipped: Omit<Skipped, 'golden'>[] = [];
  for (const { name: itemName, item, i } of items) {
    const request = member(item, 'request');
    if (request === undefined) throw new GoldenError(`${file}: item ${i} has no "request"`);
    const response = member(item, 'response');
    if (answered(response)) exchanges.push({ name: itemName, file, layout: 'array', request: compactJson(request.raw), response: compactJson(response!.raw) });
    else skipped.push({ name: itemName, file, request: compactJson(request.raw), reason: 'no recorded result or error' });
  }
  return { exchanges, skipped };
}

function read(path: string): string {
  return readBytes(path).toString('utf8');
}

function gunzipped(path: string): string {
  const bytes = readBytes(path);
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (err) {
    throw new GoldenError(`cannot read golden file ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new GoldenError(`cannot read golden file ${path}: ${code ?? (err instanceof Error ? err.message : String(err))}`);
  }
}

/** A response file's body: one final newline is not part of it (an HTTP body saved by curl has it). */
export const responseBody = (text: string): string | undefined => {
  const body = text.replace(/\r?\n$/, '');
  return body === '' ? undefined : body;
};

function readPair(requestPath: string, name: string): Omit<Exchange, 'golden'> {
  const responsePath = requestPath.slice(0, -REQUEST.length) + RESPONSE;
  const packedPath = requestPath.slice(0, -REQUEST.length) + PACKED;
  if (!existsSync(responsePath) && existsSync(packedPath)) {
    return { name, file: packedPath, layout: 'packed', request: read(requestPath), response: responseBody(gunzipped(packedPath)) };
  }
  if (!existsSync(responsePath)) throw new GoldenError(`${requestPath}: no ${basename(responsePath)} beside it`);
  return { name, file: responsePath, layout: 'pair', request: read(requestPath), response: responseBody(read(responsePath)) };
}

/** One file of a walk (`strict` false) or named on the command line (`strict` true). */
function readFile(path: string, name: string, strict: boolean): FileSet | undefined {
  if (path.endsWith('.io')) return { exchanges: parseIo(read(path), path, name.slice(0, -3)), skipped: [] };
  if (path.endsWith(REQUEST)) return { exchanges: [readPair(path, name.slice(0, -REQUEST.length))], skipped: [] };
  const suffix = path.endsWith(RESPONSE) ? RESPONSE : path.endsWith(PACKED) ? PACKED : undefined;
  if (suffix !== undefined) {
    const requestPath = path.slice(0, -suffix.length) + REQUEST;
    if (!existsSync(requestPath)) throw new GoldenError(`${path}: no ${basename(requestPath)} beside it`);
    // in a walk the pair is read at its request file
    return strict ? { exchanges: [readPair(requestPath, name.slice(0, -suffix.length))], skipped: [] } : undefined;
  }
  if (path.endsWith('.json')) {
    const text = read(path);
    // a walk opens only files that start like an array: fixtures and genesis files are objects
    if (!strict && text.trimStart()[0] !== '[') return undefined;
    return parseArray(text, path, name.slice(0, -'.json'.length), strict);
  }
  if (!strict) return undefined;
  throw new GoldenError(`${path}: not a golden file (.io, NAME${REQUEST} or a JSON array of {"request", "response"})`);
}

function walk(dir: string, prefix: string, sets: FileSet[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    throw new GoldenError(`cannot read golden directory ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    // a symbolic link counts as what it points to
    const target = entry.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : entry;
    if (target?.isDirectory()) walk(path, name, sets);
    else if (target?.isFile()) {
      const set = readFile(path, name, false);
      if (set !== undefined) sets.push(set);
    }
  }
}

/** Every exchange recorded in `path` (a golden file or a directory of them). Throws GoldenError. */
export function readGolden(path: string): GoldenSet {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (err) {
    throw new GoldenError(`cannot read golden ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const sets: FileSet[] = [];
  if (isDirectory) walk(path, '', sets);
  else sets.push(readFile(path, basename(path), true)!);
  const set = {
    exchanges: sets.flatMap((s) => s.exchanges.map((e) => ({ ...e, golden: path }))),
    skipped: sets.flatMap((s) => s.skipped.map((e) => ({ ...e, golden: path }))),
  };
  if (set.exchanges.length === 0 && set.skipped.length === 0) throw new GoldenError(`${path}: no recorded exchanges found`);
  return set;
}
