// go-ethereum's codecs for the parameters of eth_getLogs, eth_feeHistory and the by-index block
// reads: FilterCriteria (eth/filters/api.go UnmarshalJSON), math.HexOrDecimal64, hexutil.Uint,
// []float64 and rpc.BlockNumberOrHash (rpc/types.go). Texts are go-ethereum's.
import type { JsonNode } from '../encoding/rawJson.ts';
import { type BlockSelector, gethBlockNumber, gethDecodeUint64, gethHash, hexToBytes, ParamDecodeError, type ParamCodec } from './schemas.ts';

/** A decoded filter: a block hash, or a range whose ends are numbers or tags. */
export interface FilterCriteria {
  readonly blockHash: Uint8Array | undefined;
  readonly fromBlock: BlockSelector | undefined;
  readonly toBlock: BlockSelector | undefined;
  readonly addresses: readonly Uint8Array[];
  /** One OR-set per position; an empty set is a wildcard. */
  readonly topics: readonly (readonly Uint8Array[])[];
}

/** eth/filters/api.go maxTopics and maxSubTopics. */
const MAX_TOPICS = 4;
const MAX_SUB_TOPICS = 1000;

/** common/hexutil Decode errors, as `%v` prints them. */
function hexutilDecode(s: string): Uint8Array {
  if (s.length === 0) throw new ParamDecodeError('empty hex string');
  if (!(s.startsWith('0x') || s.startsWith('0X'))) throw new ParamDecodeError('hex string without 0x prefix');
  const digits = s.slice(2);
  if (digits.length % 2 !== 0) throw new ParamDecodeError('hex string of odd length');
  if (!/^[0-9a-fA-F]*$/.test(digits)) throw new ParamDecodeError('invalid hex string');
  return hexToBytes(digits);
}

function decodeFixed(s: string, size: number, what: string): Uint8Array {
  const bytes = hexutilDecode(s);
  if (bytes.length !== size) throw new ParamDecodeError(`hex has invalid length ${bytes.length} after decoding; expected ${size} for ${what}`);
  return bytes;
}

function decodeTopic(s: string): Uint8Array {
  return decodeFixed(s, 32, 'topic');
}

function decodeAddresses(node: JsonNode): Uint8Array[] {
  if (node.t === 'null') return [];
  if (node.t === 'string') {
    try {
      return [decodeFixed(node.value, 20, 'address')];
    } catch (err) {
      throw new ParamDecodeError(`invalid address: ${(err as Error).message}`);
    }
  }
  if (node.t !== 'array') throw new ParamDecodeError('invalid addresses in query');
  return node.items.map((item, i) => {
    if (item.t !== 'string') throw new ParamDecodeError(`non-string address at index ${i}`);
    try {
      return decodeFixed(item.value, 20, 'address');
    } catch (err) {
      throw new ParamDecodeError(`invalid address at index ${i}: ${(err as Error).message}`);
    }
  });
}

function decodeTopics(node: JsonNode): Uint8Array[][] {
  if (node.t === 'null') return [];
  if (node.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field input.topics of type []interface {}`);
  if (node.items.length > MAX_TOPICS) throw new ParamDecodeError('exceed max topics');
  return node.items.map((item) => {
    if (item.t === 'null') return [];
    if (item.t === 'string') return [decodeTopic(item.value)];
    if (item.t !== 'array') throw new ParamDecodeError('invalid topic(s)');
    if (item.items.length > MAX_SUB_TOPICS) throw new ParamDecodeError('exceed max topics');
    const set: Uint8Array[] = [];
    for (const sub of item.items) {
      if (sub.t === 'null') return []; // a null member matches anything
      if (sub.t !== 'string') throw new ParamDecodeError('invalid topic(s)');
      set.push(decodeTopic(sub.value));
    }
    return set;
  });
}

/** FilterCriteria.UnmarshalJSON (eth/filters/api.go). Keys match case-insensitively, as encoding/json does. */
export const gethFilterCriteria: ParamCodec<FilterCriteria> = {
  required: true,
  decode(node) {
    if (node.t === 'null') return { blockHash: undefined, fromBlock: undefined, toBlock: undefined, addresses: [], topics: [] };
    if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type filters.input`);
    const field = (name: string): JsonNode | undefined => {
      let found: JsonNode | undefined;
      for (const [key, value] of node.entries) if (key.toLowerCase() === name.toLowerCase()) found = value;
      return found;
    };
    const present = (n: JsonNode | undefined): n is JsonNode => n !== undefined && n.t !== 'null';
    const hashNode = field('blockHash');
    const fromNode = field('fromBlock');
    const toNode = field('toBlock');
    const blockHash = present(hashNode) ? inField('blockHash', () => gethHash.decode(hashNode)) : undefined;
    const fromBlock = present(fromNode) ? gethBlockNumber.decode(fromNode) : undefined;
    const toBlock = present(toNode) ? gethBlockNumber.decode(toNode) : undefined;
    if (blockHash !== undefined && (fromBlock !== undefined || toBlock !== undefined)) {
      throw new ParamDecodeError('cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other');
    }
    const addressNode = field('address');
    const topicsNode = field('topics');
    return {
      blockHash,
      fromBlock: blockHash === undefined ? fromBlock : undefined,
      toBlock: blockHash === undefined ? toBlock : undefined,
      addresses: addressNode === undefined ? [] : decodeAddresses(addressNode),
      topics: topicsNode === undefined ? [] : decodeTopics(topicsNode),
    };
  },
};

/** encoding/json names the struct field of a type error raised inside it. */
function inField<T>(field: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof ParamDecodeError) throw new ParamDecodeError(err.message.replace(' into Go value of type ', ` into Go struct field input.${field} of type `));
    throw err;
  }
}

/** common/math HexOrDecimal64: a JSON string or bare token, `0x` hex or decimal. */
export const gethHexOrDecimal64: ParamCodec<bigint> = {
  required: true,
  decode(node) {
    let text = node.raw;
    if (text.length > 1 && text.startsWith('"')) text = text.slice(1, -1);
    const hex = text.startsWith('0x') || text.startsWith('0X');
    const digits = hex ? text.slice(2) : text;
    if (text === '') return 0n; // math.ParseUint64("") is 0, ok
    const ok = digits.length > 0 && (hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits);
    const value = ok ? BigInt(hex ? `0x${digits}` : digits) : -1n;
    if (value < 0n || value > 0xffffffffffffffffn) throw new ParamDecodeError(`invalid hex or decimal integer ${JSON.stringify(text)}`);
    return value;
  },
};

/** hexutil.Uint (uintBits 64): a JSON string of a canonical hex number. */
export const gethHexUint: ParamCodec<bigint> = {
  required: true,
  decode(node) {
    const typeError = (what: string) => new ParamDecodeError(`json: cannot unmarshal ${what} into Go value of type hexutil.Uint`);
    if (node.t !== 'string') throw typeError('non-string');
    try {
      return gethDecodeUint64(node.value);
    } catch (err) {
      throw typeError((err as Error).message);
    }
  },
};

/** `[]float64`: null is an empty list. */
export const gethFloatList: ParamCodec<number[]> = {
  required: true,
  decode(node) {
    if (node.t === 'null') return [];
    if (node.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type []float64`);
    return node.items.map((item) => {
      if (item.t !== 'number') throw new ParamDecodeError(`json: cannot unmarshal ${item.t} into Go value of type float64`);
      return Number(item.raw);
    });
  },
};

/** rpc.BlockNumberOrHash after decoding. */
export type BlockNumberOrHash =
  | BlockSelector
  | { readonly hash: Uint8Array; readonly requireCanonical: boolean }
  /** `{}`: decodes, and the backend then refuses it. */
  | { readonly neither: true };

/** rpc.BlockNumberOrHash.UnmarshalJSON: an object {blockHash|blockNumber, requireCanonical}, a hash, a number or a tag. */
export const gethBlockNumberOrHash: ParamCodec<BlockNumberOrHash> = {
  required: true,
  decode(node) {
    if (node.t === 'object') {
      let hash: Uint8Array | undefined;
      let number: BlockSelector | undefined;
      let requireCanonical = false;
      for (const [key, value] of node.entries) {
        const k = key.toLowerCase();
        if (value.t === 'null') continue;
        if (k === 'blockhash') hash = gethHash.decode(value);
        else if (k === 'blocknumber') number = gethBlockNumber.decode(value);
        else if (k === 'requirecanonical') requireCanonical = value.t === 'bool' && value.value;
      }
      if (hash !== undefined && number !== undefined) {
        throw new ParamDecodeError('cannot specify both BlockHash and BlockNumber, choose one or the other');
      }
      if (hash !== undefined) return { hash, requireCanonical };
      if (number !== undefined) return number;
      return { neither: true };
    }
    if (node.t !== 'string') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type string`);
    if (node.value.length === 66) return { hash: gethHash.decode(node), requireCanonical: false };
    return gethBlockNumber.decode(node);
  },
};

/** Any value, not read (the write methods refuse before looking at their arguments). */
export const anyParam: ParamCodec<undefined> = {
  required: false,
  decode: () => undefined,
};

/** Any value, kept as read, for a handler that decodes it itself (eth_subscribe's options). */
export const rawParam: ParamCodec<JsonNode | undefined> = {
  required: false,
  decode: (node) => node,
};
