// A JSON reader that keeps the source text of every value. go-ethereum decodes a request lazily:
// the id is echoed as the exact bytes it arrived as (json.RawMessage), and a block parameter is
// parsed from its raw text (rpc/types.go BlockNumber.UnmarshalJSON), so `3` and `"3"` both give
// "hex string without 0x prefix". JSON.parse loses that text; this reader does not.
//
// Like Go's json.Decoder on a stream, `readFirstValue` reads the first value and ignores what
// follows it; strings are checked like encoding/json (no raw control characters, valid escapes)
// and lone surrogates become U+FFFD.

export type JsonNode =
  | { readonly t: 'object'; readonly raw: string; readonly entries: readonly (readonly [string, JsonNode])[] }
  | { readonly t: 'array'; readonly raw: string; readonly items: readonly JsonNode[] }
  | { readonly t: 'string'; readonly raw: string; readonly value: string }
  | { readonly t: 'number'; readonly raw: string }
  | { readonly t: 'bool'; readonly raw: string; readonly value: boolean }
  | { readonly t: 'null'; readonly raw: string };

/** Result of reading a body: a value, nothing at all (only whitespace), or a syntax error. */
export type ReadResult = { readonly kind: 'value'; readonly node: JsonNode } | { readonly kind: 'empty' } | { readonly kind: 'invalid' };

/** encoding/json's nesting limit (decode.go maxNestingDepth). */
const MAX_DEPTH = 10000;

class JsonSyntaxError extends Error {}

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HAS_LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  skipWs(): void {
    const { text } = this;
    while (this.pos < text.length && isWs(text.charCodeAt(this.pos))) this.pos++;
  }

  fail(): never {
    throw new JsonSyntaxError();
  }

  /** `depth`: containers open around this value, itself included if it is one (encoding/json's count). */
  value(depth: number): JsonNode {
    this.skipWs();
    const c = this.text[this.pos];
    switch (c) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', { t: 'bool', raw: 'true', value: true });
      case 'f':
        return this.literal('false', { t: 'bool', raw: 'false', value: false });
      case 'n':
        return this.literal('null', { t: 'null', raw: 'null' });
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        return this.fail();
    }
  }

  literal(word: string, node: JsonNode): JsonNode {
    if (!this.text.startsWith(word, this.pos)) this.fail();
    this.pos += word.length;
    return node;
  }

  digits(): number {
    const start = this.pos;
    while (this.pos < this.text.length) {
      const d = this.text.charCodeAt(this.pos);
      if (d < 0x30 || d > 0x39) break;
      this.pos++;
    }
    return this.pos - start;
  }

  number(): JsonNode {
    const start = this.pos;
    if (this.text[this.pos] === '-') this.pos++;
    if (this.text[this.pos] === '0') this.pos++;
    else if (this.digits() === 0) this.fail();
    if (this.text[this.pos] === '.') {
      this.pos++;
      if (this.digits() === 0) this.fail();
    }
    if (this.text[this.pos] === 'e' || this.text[this.pos] === 'E') {
      this.pos++;
      if (this.text[this.pos] === '+' || this.text[this.pos] === '-') this.pos++;
      if (this.digits() === 0) this.fail();
    }
    return { t: 'number', raw: this.text.slice(start, this.pos) };
  }

  string(): JsonNode & { t: 'string' } {
    const { text } = this;
    const start = this.pos;
    this.pos++; // opening quote
    let escaped = false;
    for (;;) {
      if (this.pos >= text.length) this.fail();
      const c = text.charCodeAt(this.pos);
      if (c === 0x22) break;
      if (c < 0x20) this.fail();
      if (c === 0x5c) {
        escaped = true;
        const e = text[this.pos + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.pos + 2, this.pos + 6))) this.fail();
          this.pos += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) this.fail();
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
    this.pos++; // closing quote
    const raw = text.slice(start, this.pos);
    let value = escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    if (HAS_LONE_SURROGATE.test(value)) value = value.replace(LONE_SURROGATES, '\uFFFD');
    return { t: 'string', raw, value };
  }

  object(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail();
    const start = this.pos;
    this.pos++;
    const entries: (readonly [string, JsonNode])[] = [];
    this.skipWs();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return { t: 'object', raw: this.text.slice(start, this.pos), entries };
    }
    for (;;) {
      this.skipWs();
      if (this.text[this.pos] !== '"') this.fail();
      const key = this.string().value;
      this.skipWs();
      if (this.text[this.pos] !== ':') this.fail();
      this.pos++;
      entries.push([key, this.value(depth + 1)]);
      this.skipWs();
      const c = this.text[this.pos++];
      if (c === '}') break;
      if (c !== ',') this.fail();
    }
    return { t: 'object', raw: this.text.slice(start, this.pos), entries };
  }

  array(depth: number): JsonNode {
    if (depth > MAX_DEPTH) this.fail();
    const start = this.pos;
    this.pos++;
    const items: JsonNode[] = [];
    this.skipWs();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return { t: 'array', raw: this.text.slice(start, this.pos), items };
    }
    for (;;) {
      items.push(this.value(depth + 1));
      this.skipWs();
      const c = this.text[this.pos++];
      if (c === ']') break;
      if (c !== ',') this.fail();
    }
    return { t: 'array', raw: this.text.slice(start, this.pos), items };
  }
}

/** Reads the first JSON value of `text` (go-ethereum's json.Decoder on the request body). */
export function readFirstValue(text: string): ReadResult {
  const reader = new Reader(text);
  reader.skipWs();
  if (reader.pos >= text.length) return { kind: 'empty' };
  try {
    return { kind: 'value', node: reader.value(1) };
  } catch (err) {
    if (err instanceof JsonSyntaxError || err instanceof RangeError) return { kind: 'invalid' };
    throw err;
  }
}

/** The plain JS value of a node (objects keep the last duplicate key, as encoding/json does). */
export function toPlain(node: JsonNode): unknown {
  switch (node.t) {
    case 'object': {
      const out: Record<string, unknown> = {};
      // defineProperty, so that a "__proto__" key is data and not a prototype change
      for (const [k, v] of node.entries) {
        Object.defineProperty(out, k, { value: toPlain(v), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'array':
      return node.items.map(toPlain);
    case 'string':
    case 'bool':
      return node.value;
    case 'number':
      return Number(node.raw);
    case 'null':
      return null;
  }
}
