// Pretty-printing over JSON *text*, for the response files `record` writes. A golden keeps its
// bytes: escapes (`\u003c`), number spellings (`1.0`, `1e2`, integers past 2^53), key order and
// duplicate keys survive; only the whitespace between tokens changes, so
// compactJson(prettyJson(x)) === compactJson(x).

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * `text` with one member or item a line, two-space indents, `"key": value`, `{}` and `[]` inline, no
 * trailing newline. Strings, escapes, numbers and key order are kept as written. Text that is not
 * exactly one JSON value (surrounding whitespace allowed) is returned unchanged.
 */
export function prettyJson(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  // The engine's JSON is native code, which the walk below is not until the JIT has compiled it
  // (a first multi-megabyte trace). It is exact when parsing lost nothing, which is when the value
  // prints back as the very same text; JSON.stringify with a gap of 2 is then this file's layout.
  try {
    if (JSON.stringify(value) === text) return JSON.stringify(value, null, 2);
  } catch {
    // nested deeper than the engine's stack: the walk below keeps its own
  }
  return prettyTokens(text);
}

/** The index of the quote that closes the string opening at `start`. */
function stringClose(text: string, start: number): number {
  let close = text.indexOf('"', start + 1);
  for (;;) {
    let slashes = 0;
    while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return close;
    close = text.indexOf('"', close + 1);
  }
}

/**
 * prettyJson by walking the text: for what JSON.parse would change (`\u003c`, `1.0`, duplicates).
 * `text` must be valid JSON (prettyJson has checked): strings and scalars are copied in runs
 * between the punctuation, which is where the layout changes.
 */
export function prettyTokens(text: string): string {
  const indents = ['\n'];
  const indent = (depth: number): string => (indents[depth] ??= `\n${'  '.repeat(depth)}`);
  let out = '';
  let depth = 0;
  /** Start of the text not yet copied to `out`. */
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringClose(text, i);
    } else if (isWs(c)) {
      out += text.slice(from, i);
      from = i + 1;
    } else if (c === 0x2c) {
      out += text.slice(from, i) + ',' + indent(depth);
      from = i + 1;
    } else if (c === 0x3a) {
      out += text.slice(from, i) + ': ';
      from = i + 1;
    } else if (c === 0x7b || c === 0x5b) {
      let next = i + 1;
      while (isWs(text.charCodeAt(next))) next++;
      // `}` and `]` are `{` and `[` plus two: an empty container stays inline
      const empty = text.charCodeAt(next) === c + 2;
      out += text.slice(from, i) + (empty ? text[i]! + text[next]! : text[i]! + indent(++depth));
      i = empty ? next : i;
      from = i + 1;
    } else if (c === 0x7d || c === 0x5d) {
      out += text.slice(from, i) + indent(--depth) + text[i]!;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/**
 * Whether a golden file is laid out with whitespace between its tokens (`record`'s default) rather
 * than on one line as a client sent it. Whitespace before and after the value does not count: a
 * response saved by curl ends with a newline and is still one line.
 */
export function isPretty(text: string): boolean {
  let end = text.length;
  while (end > 0 && isWs(text.charCodeAt(end - 1))) end--;
  let i = 0;
  while (i < end && isWs(text.charCodeAt(i))) i++;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringClose(text, i);
    else if (isWs(c)) return true;
  }
  return false;
}
