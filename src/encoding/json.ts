// JSON exactly as Go's encoding/json writes it: compact, with `<`, `>`, `&`, U+2028 and U+2029
// escaped (go-ethereum's responses go through it). Key order is the insertion order of the objects
// the renderers build, so a renderer fixes the order by the order it assigns keys.

/**
 * A byte of invalid UTF-8 inside a Go string, kept in a JS string as a lone surrogate (which no
 * decoded text contains): JSON.stringify writes it as `\udfff`, and Go writes such a byte `\ufffd`.
 */
export const INVALID_BYTE_CODE = 0xdfff;

const GO_ESCAPES = /[<>&\u2028\u2029]/g;
const HAS_GO_ESCAPE = /[<>&\u2028\u2029]/;
const ESCAPED: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
// the escape JSON.stringify writes for INVALID_BYTE_CODE, not itself behind an escaped backslash
const INVALID_BYTE_ESCAPE = /(?<!\\)((?:\\\\)*)\\udfff/g;

/** Serialises like Go: compact, HTML-safe escapes. Strings cannot hold those characters unescaped. */
export function goJson(value: unknown): string {
  let text = JSON.stringify(value);
  if (HAS_GO_ESCAPE.test(text)) text = text.replace(GO_ESCAPES, (c) => ESCAPED[c]!);
  if (text.includes('\\udfff')) text = text.replace(INVALID_BYTE_ESCAPE, '$1\\ufffd');
  return text;
}
