// trace_* params as alloy/serde read them in reth and anvil: lenient block numbers (JSON numbers,
// decimal strings, hex without 0x) and the exact error texts anvil's corpus records (errors/).
import type { JsonNode } from '../encoding/rawJson.ts';
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

/** alloy TraceType, in its declaration order (serde's "expected one of" list). */
const TRACE_TYPES = ['trace', 'vmTrace', 'stateDiff'] as const;
export type TraceTypeName = (typeof TRACE_TYPES)[number];

/** serde HashSet<TraceType>: a sequence of variant names. */
export const serdeTraceTypes: ParamCodec<ReadonlySet<TraceTypeName>> = {
  required: true,
  decode(node) {
    if (node.t !== 'array') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a sequence`);
    const out = new Set<TraceTypeName>();
    for (const item of node.items) {
      if (item.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(item)}, expected variant identifier`);
      if (!(TRACE_TYPES as readonly string[]).includes(item.value)) {
        throw new ParamDecodeError(`unknown variant \`${item.value}\`, expected one of ${TRACE_TYPES.map((t) => `\`${t}\``).join(', ')}`);
      }
      out.add(item.value as TraceTypeName);
    }
    return out;
  },
};

/** alloy Index: a hex quantity string or a JSON number. */
function serdeIndex(node: JsonNode): number {
  if (node.t === 'number' && /^\d+$/.test(node.raw)) return Number(node.raw);
  if (node.t === 'string' && /^0x[0-9a-fA-F]+$/.test(node.value)) return Number.parseInt(node.value.slice(2), 16);
  throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected the index`);
}

export const serdeIndices: ParamCodec<readonly number[]> = {
  required: true,
  decode(node) {
    if (node.t !== 'array') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a sequence`);
    return node.items.map(serdeIndex);
  },
};

/** alloy Address from a JSON string. */
function serdeAddress(node: JsonNode): Uint8Array {
  if (node.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a valid hex string`);
  const s = node.value.startsWith('0x') ? node.value.slice(2) : node.value;
  const bad = /[^0-9a-fA-F]/.exec(s);
  if (bad) throw new ParamDecodeError(`invalid character ${JSON.stringify(bad[0]).replace(/"/g, "'")} at position ${bad.index}`);
  if (s.length % 2 !== 0) throw new ParamDecodeError('odd number of digits');
  if (s.length !== 40) throw new ParamDecodeError('invalid string length');
  return hexToBytes(s);
}

/**
 * TraceFilter's block numbers as anvil 1.7.1 and reth read them (alloy u64_hex_or_decimal): a JSON
 * number, a decimal string, or 0x-hex ("0x" is 0) that fits a u64; anything else, block tags
 * included, is `invalid value: string "…", expected a 8 byte hex string` (golden/anvil-errors).
 */
function serdeU64(node: JsonNode): bigint {
  if (node.t === 'number' && /^\d+$/.test(node.raw) && BigInt(node.raw) <= 0xffffffffffffffffn) return BigInt(node.raw);
  if (node.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected a 0x-prefixed hex string`);
  const s = node.value;
  const value = /^\d+$/.test(s) ? BigInt(s) : /^0[xX][0-9a-fA-F]*$/.test(s) ? BigInt(s.length === 2 ? '0' : s) : undefined;
  if (value === undefined || value > 0xffffffffffffffffn) throw new ParamDecodeError(`invalid value: string ${JSON.stringify(s)}, expected a 8 byte hex string`);
  return value;
}

/** alloy TraceFilter (deny_unknown_fields). */
export interface TraceFilter {
  readonly fromBlock: bigint | undefined;
  readonly toBlock: bigint | undefined;
  readonly fromAddress: readonly Uint8Array[];
  readonly toAddress: readonly Uint8Array[];
  readonly mode: 'union' | 'intersection';
  readonly after: bigint | undefined;
  readonly count: bigint | undefined;
}

const FILTER_FIELDS = ['fromBlock', 'toBlock', 'fromAddress', 'toAddress', 'mode', 'after', 'count'];

export const serdeTraceFilter: ParamCodec<TraceFilter> = {
  required: true,
  decode(node) {
    if (node.t !== 'object') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected struct TraceFilter`);
    const f: { -readonly [K in keyof TraceFilter]: TraceFilter[K] } = {
      fromBlock: undefined, toBlock: undefined, fromAddress: [], toAddress: [], mode: 'union', after: undefined, count: undefined,
    };
    for (const [key, value] of node.entries) {
      if (!FILTER_FIELDS.includes(key)) {
        throw new ParamDecodeError(`unknown field \`${key}\`, expected one of ${FILTER_FIELDS.map((k) => `\`${k}\``).join(', ')}`);
      }
      if (value.t === 'null' && key !== 'fromAddress' && key !== 'toAddress' && key !== 'mode') continue;
      switch (key) {
        case 'fromBlock': f.fromBlock = serdeU64(value); break;
        case 'toBlock': f.toBlock = serdeU64(value); break;
        case 'after': f.after = serdeU64Number(value); break;
        case 'count': f.count = serdeU64Number(value); break;
        case 'fromAddress':
        case 'toAddress': {
          if (value.t !== 'array') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(value)}, expected a sequence`);
          f[key] = value.items.map(serdeAddress);
          break;
        }
        case 'mode': {
          if (value.t !== 'string' || (value.value !== 'union' && value.value !== 'intersection')) {
            const shown = value.t === 'string' ? `unknown variant \`${value.value}\`` : `invalid type: ${serdeUnexpected(value)}`;
            throw new ParamDecodeError(`${shown}, expected ${value.t === 'string' ? 'one of `union`, `intersection`' : 'variant identifier'}`);
          }
          f.mode = value.value;
          break;
        }
      }
    }
    return f;
  },
};

/** A plain serde u64 (after, count): a JSON number. */
function serdeU64Number(node: JsonNode): bigint {
  if (node.t === 'number' && /^\d+$/.test(node.raw) && BigInt(node.raw) <= 0xffffffffffffffffn) return BigInt(node.raw);
  throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected u64`);
}
