// Small helpers over JSON text for the golden harness: whole-text parsing that keeps every value's
// source (rpc/rawJson.ts), compaction that keeps escapes and number spellings.
import { readFirstValue, type JsonNode } from '../encoding/rawJson.ts';

export type { JsonNode };

const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The JSON value that is the whole of `text` (surrounding whitespace allowed), or undefined. */
export function parseWhole(text: string): JsonNode | undefined {
  const read = readFirstValue(text);
  if (read.kind !== 'value') return undefined;
  let start = 0;
  while (isWs(text[start])) start++;
  for (let i = start + read.node.raw.length; i < text.length; i++) if (!isWs(text[i])) return undefined;
  return read.node;
}

/** `text` without the whitespace between tokens; strings, escapes and numbers are kept as written. */
export function compactJson(text: string): string {
  let out = '';
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (isWs(c)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/** The value of the last `key` entry of an object node (encoding/json keeps the last duplicate). */
export function member(node: JsonNode, key: string): JsonNode | undefined {
  if (node.t !== 'object') return undefined;
  let found: JsonNode | undefined;
  for (const [k, v] of node.entries) if (k === key) found = v;
  return found;
}

/** A value as it reads in a report: compact JSON, cut to `max` characters. */
export function shortText(text: string, max = 80): string {
  const compact = compactJson(text);
  return compact.length <= max ? compact : `${compact.slice(0, max - 1)}…`;
}
