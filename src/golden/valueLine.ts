// Where a difference sits in a pretty golden (the NAME.response.json files `record` writes): the
// line of the recorded value at a JSON path, so an annotation lands on the value, not on the file.
// A plain scan of the text (strings and brackets skipped as JSON has them), along the steps of the
// path every difference's location carries.
import type { PathStep } from '../compare/types.ts';

const isWs = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** The position past the JSON string starting at `pos` (its opening quote). */
function skipString(text: string, pos: number): number {
  for (let i = pos + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/** The position past the JSON value starting at `pos`. */
function skipValue(text: string, pos: number): number {
  let depth = 0;
  for (let i = pos; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i) - 1;
      if (depth === 0) return i + 1;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth <= 0) return i + 1;
    } else if (depth === 0 && (c === ',' || isWs(c))) return i;
  }
  return text.length;
}

const skipWs = (text: string, pos: number): number => {
  while (isWs(text[pos])) pos++;
  return pos;
};

/** The start of the member `key` (an object) or item `index` (an array) of the value at `pos`; undefined when it has none. */
function child(text: string, pos: number, step: string | number): number | undefined {
  const open = text[pos];
  if ((open === '{') !== (typeof step === 'string') || (open !== '{' && open !== '[')) return undefined;
  let i = skipWs(text, pos + 1);
  for (let index = 0; text[i] !== '}' && text[i] !== ']' && i < text.length; index++) {
    if (open === '{') {
      const end = skipString(text, i);
      const key = JSON.parse(text.slice(i, end)) as string;
      i = skipWs(text, skipWs(text, end) + 1);
      if (key === step) return i;
    } else if (index === step) return i;
    i = skipWs(text, skipValue(text, i));
    if (text[i] === ',') i = skipWs(text, i + 1);
  }
  return undefined;
}

/**
 * The line (from 1) of the value at `steps` (`['result', 0, 'calls', 1, 'gasUsed']`) in the JSON
 * `text`; of the deepest value on the way where the text has no such member (a value only our answer has).
 */
export function valueLine(text: string, steps: readonly PathStep[]): number {
  let pos = skipWs(text, 0);
  try {
    for (const step of steps) {
      const next = child(text, pos, step);
      if (next === undefined) break;
      pos = next;
    }
  } catch {
    // a recording that is not JSON where the path goes: the value's line is the one reached
  }
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < pos; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
