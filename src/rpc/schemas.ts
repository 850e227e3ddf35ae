// Schemas at the boundary. TypeBox describes what a well-formed parameter looks like and is the
// fast path; when a value does not match, the decoder produces the exact text the reference
// client prints for it: go-ethereum for debug_* and eth_* (rpc/types.go, common/hexutil), and
// alloy/serde as anvil and reth print it for trace_* (serdeParams.ts; anvil corpus errors/).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { StructLogConfig } from '../trace/registry.ts';
import type { JsonNode } from '../encoding/rawJson.ts';

// ---- TypeBox: the accepted shapes ---------------------------------------------------------

export const BlockTag = Type.Union([
  Type.Literal('latest'),
  Type.Literal('earliest'),
  Type.Literal('pending'),
  Type.Literal('finalized'),
  Type.Literal('safe'),
]);
export type BlockTag = Static<typeof BlockTag>;

/** A canonical hex quantity: `0x0`, `0x1f` (no leading zeros). */
export const Quantity = Type.String({ pattern: '^0[xX](0|[1-9a-fA-F][0-9a-fA-F]{0,15})$' });
/** A 32-byte hash. */
export const Hash32 = Type.String({ pattern: '^0[xX][0-9a-fA-F]{64}$' });
export const Address20 = Type.String({ pattern: '^0[xX][0-9a-fA-F]{40}$' });

/** A block selector after decoding: a number or a tag. */
export type BlockSelector = { readonly number: bigint } | { readonly tag: BlockTag };

/** Decoded tracing options (go-ethereum TraceConfig). */
export interface TraceConfig {
  readonly tracer: string | undefined;
  readonly timeout: string | undefined;
  /** Raw `tracerConfig`, undefined when absent or null. */
  readonly tracerConfig: JsonNode | undefined;
  /** The struct logger's options (the embedded logger.Config), used when no tracer is named. */
  readonly logger: StructLogConfig;
}

/** logger.Config's zero value. */
export const NO_LOGGER_OPTIONS: StructLogConfig = { enableMemory: false, disableStack: false, disableStorage: false, enableReturnData: false, limit: 0 };

const INT64_MAX = (1n << 63n) - 1n;

/** A parameter that cannot be decoded; the message is the client's text for it. */
export class ParamDecodeError extends Error {}

/** How one positional parameter is read. `required` mirrors go-ethereum's non-pointer argument. */
export interface ParamCodec<T> {
  readonly required: boolean;
  decode(node: JsonNode): T;
}

export const isBlockTag = Value.Check.bind(Value, BlockTag) as (v: unknown) => v is BlockTag;
const isQuantity = (v: string): boolean => Value.Check(Quantity, v);

// ---- go-ethereum ---------------------------------------------------------------------------

/** common/hexutil DecodeUint64 errors, in its order of checks. */
export function gethDecodeUint64(input: string): bigint {
  if (input.length === 0) throw new ParamDecodeError('empty hex string');
  if (!(input.length >= 2 && input[0] === '0' && (input[1] === 'x' || input[1] === 'X'))) {
    throw new ParamDecodeError('hex string without 0x prefix');
  }
  const digits = input.slice(2);
  if (digits.length === 0) throw new ParamDecodeError('hex string "0x"');
  if (digits.length > 1 && digits[0] === '0') throw new ParamDecodeError('hex number with leading zero digits');
  // strconv.ParseUint(digits, 16, 64): the first bad digit or the first overflow wins
  let n = 0n;
  for (const c of digits) {
    const d = parseInt(c, 16);
    if (Number.isNaN(d) || !/[0-9a-fA-F]/.test(c)) throw new ParamDecodeError('invalid hex string');
    n = n * 16n + BigInt(d);
    if (n > 0xffffffffffffffffn) throw new ParamDecodeError('hex number > 64 bits');
  }
  return n;
}

/** rpc.BlockNumber.UnmarshalJSON: parsed from the raw text, quotes stripped if present. */
export const gethBlockNumber: ParamCodec<BlockSelector> = {
  required: true,
  decode(node) {
    if (node.t === 'string' && isBlockTag(node.value) && node.raw === `"${node.value}"`) return { tag: node.value };
    if (node.t === 'string' && isQuantity(node.value) && !node.raw.includes('\\')) {
      return checkInt64(BigInt(node.value.replace(/^0X/, '0x')));
    }
    let input = node.raw.trim();
    if (input.length >= 2 && input.startsWith('"') && input.endsWith('"')) input = input.slice(1, -1);
    if (isBlockTag(input)) return { tag: input };
    return checkInt64(gethDecodeUint64(input));
  },
};

function checkInt64(n: bigint): BlockSelector {
  if (n > 0x7fffffffffffffffn) throw new ParamDecodeError('block number larger than int64');
  return { number: n };
}

/** json.UnmarshalTypeError text for a value of the wrong JSON kind. */
function goTypeError(what: string, goType: string, field?: string): ParamDecodeError {
  return new ParamDecodeError(
    field === undefined
      ? `json: cannot unmarshal ${what} into Go value of type ${goType}`
      : `json: cannot unmarshal ${what} into Go struct field ${field} of type ${goType}`,
  );
}

function goKind(node: JsonNode): string {
  switch (node.t) {
    case 'object':
      return 'object';
    case 'array':
      return 'array';
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'bool':
      return 'bool';
    case 'null':
      return 'null';
  }
}

/** A fixed-size Go byte array (common.Hash, common.Address) via hexutil.UnmarshalFixedJSON. */
function gethFixed(size: number, goType: string, schema: TSchema): ParamCodec<Uint8Array> {
  return {
    required: true,
    decode(node) {
      if (node.t === 'string' && Value.Check(schema, node.value) && !node.raw.includes('\\')) {
        return hexToBytes(node.value.slice(2));
      }
      const raw = node.raw;
      if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) throw goTypeError('non-string', goType);
      let text = raw.slice(1, -1);
      if (text.length > 0) {
        if (text.length >= 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X')) text = text.slice(2);
        else throw goTypeError('hex string without 0x prefix', goType);
        if (text.length % 2 !== 0) throw goTypeError('hex string of odd length', goType);
      }
      if (text.length !== size * 2) throw new ParamDecodeError(`hex string has length ${text.length}, want ${size * 2} for ${goType}`);
      if (!/^[0-9a-fA-F]*$/.test(text)) throw goTypeError('invalid hex string', goType);
      return hexToBytes(text);
    },
  };
}

export const gethHash = gethFixed(32, 'common.Hash', Hash32);
export const gethAddress = gethFixed(20, 'common.Address', Address20);

/** A Go `bool` argument: null leaves it false, other kinds are type errors. */
export const gethBool: ParamCodec<boolean> = {
  required: true,
  decode(node) {
    if (node.t === 'bool') return node.value;
    if (node.t === 'null') return false;
    throw goTypeError(goKind(node), 'bool');
  },
};

// TraceConfig fields as encoding/json matches them (case-insensitively), with their Go types.
const TRACE_CONFIG_FIELDS: readonly (readonly [string, 'bool' | 'int' | 'string' | 'raw' | 'overrides'])[] = [
  ['EnableMemory', 'bool'],
  ['DisableStack', 'bool'],
  ['DisableStorage', 'bool'],
  ['EnableReturnData', 'bool'],
  ['Limit', 'int'],
  ['overrides', 'overrides'],
  ['Tracer', 'string'],
  ['Timeout', 'string'],
  ['TracerConfig', 'raw'],
];

/** logger.Config's boolean fields and their options. */
const LOGGER_FIELD: Readonly<Record<string, 'enableMemory' | 'disableStack' | 'disableStorage' | 'enableReturnData'>> = {
  EnableMemory: 'enableMemory',
  DisableStack: 'disableStack',
  DisableStorage: 'disableStorage',
  EnableReturnData: 'enableReturnData',
};

/** `*tracers.TraceConfig`: optional; decoded like encoding/json, first type error reported. */
export const gethTraceConfig: ParamCodec<TraceConfig | undefined> = {
  required: false,
  decode(node) {
    if (node.t === 'null') return undefined;
    if (node.t !== 'object') throw goTypeError(goKind(node), 'tracers.TraceConfig');
    let tracer: string | undefined;
    let timeout: string | undefined;
    let tracerConfig: JsonNode | undefined;
    const logger: { -readonly [K in keyof StructLogConfig]: StructLogConfig[K] } = { ...NO_LOGGER_OPTIONS };
    let firstError: ParamDecodeError | undefined;
    for (const [key, value] of node.entries) {
      const field = findGoField(TRACE_CONFIG_FIELDS, key);
      if (field === undefined) continue;
      const [name, kind] = field;
      if (value.t === 'null') {
        // null resets a pointer or RawMessage field and leaves a plain bool/int alone
        if (name === 'Tracer') tracer = undefined;
        else if (name === 'Timeout') timeout = undefined;
        else if (kind === 'raw') tracerConfig = undefined;
        continue;
      }
      const fieldName = `TraceConfig.${name}`;
      let error: ParamDecodeError | undefined;
      switch (kind) {
        case 'bool':
          if (value.t !== 'bool') error = goTypeError(goKind(value), 'bool', fieldName);
          else logger[LOGGER_FIELD[name]!] = value.value;
          break;
        case 'int':
          // Go's int (64 bits): an integer literal within range, else the number as written
          if (value.t !== 'number') error = goTypeError(goKind(value), 'int', fieldName);
          else if (!/^-?\d+$/.test(value.raw) || BigInt(value.raw) > INT64_MAX || BigInt(value.raw) < -INT64_MAX - 1n) {
            error = goTypeError(`number ${value.raw}`, 'int', fieldName);
          } else logger.limit = Number(value.raw);
          break;
        case 'overrides':
          if (value.t !== 'object') error = goTypeError(goKind(value), 'params.ChainConfig', fieldName);
          break;
        case 'string':
          if (value.t !== 'string') error = goTypeError(goKind(value), 'string', fieldName);
          else if (name === 'Tracer') tracer = value.value;
          else timeout = value.value;
          break;
        case 'raw':
          tracerConfig = value;
          break;
      }
      firstError ??= error;
    }
    if (firstError !== undefined) throw firstError;
    return { tracer, timeout, tracerConfig, logger };
  },
};

/** encoding/json field lookup: exact name first, then ASCII case-insensitive. */
export function findGoField<F extends readonly [string, ...unknown[]]>(fields: readonly F[], key: string): F | undefined {
  return fields.find((f) => f[0] === key) ?? fields.find((f) => f[0].toLowerCase() === key.toLowerCase());
}

// ---- tracer configuration --------------------------------------------------------------------

export { checkTracerConfig } from '../trace/configCheck.ts';

/** Unprefixed hex (already checked) to bytes. */
export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** A Go `string` argument. */
export const gethString: ParamCodec<string> = {
  required: true,
  decode(node) {
    if (node.t !== 'string') throw goTypeError(goKind(node), 'string');
    return node.value;
  },
};

/** A Go `[]string` argument: null is an empty list. */
export const gethStringList: ParamCodec<string[]> = {
  required: true,
  decode(node) {
    if (node.t === 'null') return [];
    if (node.t !== 'array') throw goTypeError(goKind(node), '[]string');
    return node.items.map((item) => gethString.decode(item));
  },
};
