// trace_* params as alloy/serde read them in reth and anvil: lenient block numbers (JSON numbers,
// decimal strings, hex without 0x) and the exact error texts anvil's corpus records (errors/).
import type { JsonNode } from './rawJson.ts';
import { hexToBytes, isBlockTag, ParamDecodeError, type BlockSelector, type ParamCodec } from './schemas.ts';

/** serde's `Unexpected` rendering of a JSON value: "integer `5`", "map", "string \"x\"". */
export function serdeUnexpected(node: JsonNode): string {
  switch (node.t) {
    case 'null':
      return 'null';
    case 'bool':
      return `boolean \`${node.value}\``;
    case 'object':
      return 'map';
    case 'array':
      return 'sequence';
    case 'string':
      return `string ${JSON.stringify(node.value)}`;
    case 'number': {
      if (/^-?\d+$/.test(node.raw)) {
        const n = BigInt(node.raw);
        if (n >= -(2n ** 63n) && n <= 2n ** 64n - 1n) return `integer \`${n}\``;
      }
      const f = Number(node.raw);
      const text = Number.isInteger(f) && Math.abs(f) < 1e21 ? `${BigInt(f)}.0` : String(f);
      return `floating point \`${text}\``;
    }
  }
}

function rustParseIntError(digits: string, radix: 10 | 16): bigint {
  const body = digits.startsWith('+') ? digits.slice(1) : digits;
  if (digits.length === 0) throw new ParamDecodeError('cannot parse integer from empty string');
  if (body.length === 0) throw new ParamDecodeError('invalid digit found in string');
  let n = 0n;
  const valid = radix === 16 ? /^[0-9a-fA-F]$/ : /^[0-9]$/;
  for (const c of body) {
    if (!valid.test(c)) throw new ParamDecodeError('invalid digit found in string');
    n = n * BigInt(radix) + BigInt(parseInt(c, radix));
    if (n > 0xffffffffffffffffn) throw new ParamDecodeError('number too large to fit in target type');
  }
  return n;
}

const LENIENT_EXPECTED = 'a block number or tag, or a u64';

/** alloy-serde's lenient block number: u64 JSON number, decimal string, tag, or 0x-hex string. */
export const serdeLenientBlock: ParamCodec<BlockSelector> = {
  required: true,
  decode(node) {
    if (node.t === 'number' && /^\d+$/.test(node.raw) && BigInt(node.raw) <= 0xffffffffffffffffn) {
      return { number: BigInt(node.raw) };
    }
    if (node.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected ${LENIENT_EXPECTED}`);
    const s = node.value;
    if (/^\+?\d+$/.test(s)) {
      try {
        return { number: rustParseIntError(s, 10) };
      } catch {
        // not a u64 in decimal: fall through to the tag / hex form, as alloy does
      }
    }
    if (isBlockTag(s)) return { tag: s };
    if (s.startsWith('0x') || s.startsWith('0X')) return { number: rustParseIntError(s.slice(2), 16) };
    throw new ParamDecodeError('hex string without 0x prefix');
  },
};

/** alloy B256 from a JSON string. */
export const serdeHash: ParamCodec<Uint8Array> = {
  required: true,
  decode(node) {
    if (node.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a valid hex string`);
    const s = node.value.startsWith('0x') ? node.value.slice(2) : node.value;
    const bad = /[^0-9a-fA-F]/.exec(s);
    if (bad) throw new ParamDecodeError(`invalid character ${JSON.stringify(bad[0]).replace(/"/g, "'")} at position ${bad.index}`);
    if (s.length % 2 !== 0) throw new ParamDecodeError('odd number of digits');
    if (s.length !== 64) throw new ParamDecodeError('invalid string length');
    return hexToBytes(s);
  },
};
