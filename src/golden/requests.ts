// What `record` answers: a file of request lines, or recorded exchanges in any golden layout (their
// requests are answered again), each with the name its request/response files will carry.
import { readFileSync, statSync } from 'node:fs';
import { GoldenError } from '../errors/goldenError.ts';
import { parseArray, readGolden } from './layouts.ts';
import { requestMethods } from './run.ts';

export interface NamedRequest {
  readonly name: string;
  readonly request: string;
}

function isGolden(path: string, text: () => string): boolean {
  if (statSync(path).isDirectory()) return true;
  if (/\.(io|request\.json|response\.json)$/.test(path)) return true;
  return path.endsWith('.json') && text().trimStart()[0] === '[' && parseArray(text(), path, '', false) !== undefined;
}

/** `0007.trace_block`: the line number, zero-padded so that names sort in order, and the method. */
export function lineNames(lines: readonly string[]): NamedRequest[] {
  const width = String(lines.length).length;
  return lines.map((request, i) => {
    const methods = requestMethods(request);
    const what = methods.length === 0 ? 'request' : methods.length === 1 && request.trimStart()[0] !== '[' ? methods[0]! : 'batch';
    return { name: `${String(i + 1).padStart(width, '0')}.${what}`, request };
  });
}

/** The requests in `path`, in order. Throws GoldenError when it cannot be read. */
export function readRequests(path: string): NamedRequest[] {
  let cached: string | undefined;
  const text = (): string => (cached ??= readFileSync(path, 'utf8'));
  try {
    if (!isGolden(path, text)) {
      const lines = text().split(/\r?\n/).filter((line) => line.trim() !== '');
      if (lines.length === 0) throw new GoldenError(`${path}: no requests`);
      return lineNames(lines);
    }
  } catch (err) {
    if (err instanceof GoldenError) throw err;
    throw new GoldenError(`cannot read requests ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const set = readGolden(path);
  return [...set.exchanges, ...set.skipped].map(({ name, request }) => ({ name, request }));
}

const SAFE_SEGMENT = /[^A-Za-z0-9_.+-]/g;

/**
 * The file stem for a case name: path segments kept (a walk's subfolders), `#N` as `.N`, other
 * characters outside [A-Za-z0-9_.+-] as `_`; no segment may be empty, `.` or `..`.
 */
export function fileStem(name: string): string {
  return name
    .replace(/#(\d+)$/, '.$1')
    .split('/')
    .map((segment) => {
      const safe = segment.replace(SAFE_SEGMENT, '_');
      return safe === '' || safe === '.' || safe === '..' ? '_' : safe;
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
