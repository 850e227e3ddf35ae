// JSON exactly as Go's encoding/json writes it: compact, with `<`, `>`, `&`, U+2028 and U+2029
// escaped (go-ethereum's responses go through it). Key order is the insertion order of the objects
// the renderers build, so a renderer fixes the order by the order it assigns keys.

const GO_ESCAPES = /[<>&\u2028\u2029]/g;
const HAS_GO_ESCAPE = /[<>&\u2028\u2029]/;
const ESCAPED: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** Serialises like Go: compact, HTML-safe escapes. Strings cannot hold those characters unescaped. */
export function goJson(value: unknown): string {
  const text = JSON.stringify(value);
  return HAS_GO_ESCAPE.test(text) ? text.replace(GO_ESCAPES, (c) => ESCAPED[c]!) : text;
}
