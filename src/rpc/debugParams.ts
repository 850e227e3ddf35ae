// Parameters of go-ethereum's state debug methods (eth/api_debug.go) read as encoding/json reads
// their Go types: `int` and `uint64` are JSON numbers (not hex strings), `hexutil.Bytes` a 0x string.
import { hexToBytes } from '@ethereumjs/util';
import type { JsonNode } from '../encoding/rawJson.ts';
import { gethHash, ParamDecodeError, type ParamCodec } from './schemas.ts';

const kind = (node: JsonNode): string => (node.t === 'bool' ? 'bool' : node.t);

/** A Go integer type from a JSON number: null leaves it 0; a fraction or an overflow is refused. */
function goInteger(goType: string, min: bigint, max: bigint): ParamCodec<bigint> {
  return {
    required: true,
    decode(node) {
      if (node.t === 'null') return 0n;
      if (node.t !== 'number') throw new ParamDecodeError(`json: cannot unmarshal ${kind(node)} into Go value of type ${goType}`);
      const ok = /^-?(0|[1-9][0-9]*)$/.test(node.raw);
      const value = ok ? BigInt(node.raw) : undefined;
      if (value === undefined || value < min || value > max) throw new ParamDecodeError(`json: cannot unmarshal number ${node.raw} into Go value of type ${goType}`);
      return value;
    },
  };
}

/** Go `int` (64-bit). */
export const gethInt = goInteger('int', -(2n ** 63n), 2n ** 63n - 1n);
/** Go `uint64`. */
export const gethUint64 = goInteger('uint64', 0n, 2n ** 64n - 1n);
/** Go `*uint64`: may be left out. */
export const gethOptionalUint64: ParamCodec<bigint | undefined> = {
  required: false,
  decode: (node) => (node.t === 'null' ? undefined : gethUint64.decode(node)),
};
/** Go `*common.Hash`: may be left out. */
export const gethOptionalHash: ParamCodec<Uint8Array | undefined> = {
  required: false,
  decode: (node) => (node.t === 'null' ? undefined : gethHash.decode(node)),
};

/** hexutil.Bytes: a 0x-prefixed string of even length (null is refused, as UnmarshalJSON refuses it). */
export const gethBytes: ParamCodec<Uint8Array> = {
  required: true,
  decode(node) {
    const error = (what: string) => new ParamDecodeError(`json: cannot unmarshal ${what} into Go value of type hexutil.Bytes`);
    if (node.t !== 'string' || node.raw.includes('\\')) throw error('non-string');
    const text = node.value;
    if (text.length === 0) return new Uint8Array();
    if (!(text.startsWith('0x') || text.startsWith('0X'))) throw error('hex string without 0x prefix');
    const hex = text.slice(2);
    if (hex.length % 2 !== 0) throw error('hex string of odd length');
    if (!/^[0-9a-fA-F]*$/.test(hex)) throw error('invalid hex string');
    return hexToBytes(`0x${hex}`);
  },
};
