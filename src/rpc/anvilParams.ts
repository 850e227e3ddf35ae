// Params as anvil 1.7.1 reads them for the methods it answers alone (ots_*, erigon_*): one variant of
// its EthRequest enum (crates/anvil/core/src/eth/mod.rs, adjacently tagged by method and params,
// serde_json with arbitrary_precision), with the helpers of crates/anvil/core/src/eth/serde_helpers.rs.
// The texts are the ones anvil answers (golden/anvil-ots/*/ots/*.bad-* and the errors there).
import { hexBytes } from '../encoding/hex.ts';
import { InvalidRequestError } from '../errors/rpcErrors.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { hexToBytes, ParamDecodeError, type ParamCodec } from './schemas.ts';
import { serdeUnexpected } from './serdeParams.ts';

/** How a variant takes its params. */
export type AnvilShape =
  /** `empty_params`: none, or `[]`. */
  | { readonly kind: 'empty' }
  /** `sequence`: a list of exactly one value. */
  | { readonly kind: 'sequence' }
  /** lenient_block_number_seq: `[T; 1]`. */
  | { readonly kind: 'array' }
  /** A tuple variant: positional values; a codec that is not required is serde's `default`. */
  | { readonly kind: 'tuple'; readonly variant: string };

/** Decodes `params` for a variant of that shape; the codecs read its values. */
export function decodeAnvilParams(shape: AnvilShape, codecs: readonly ParamCodec<unknown>[], params: JsonNode | undefined): unknown[] {
  // anvil answers a request whose params are neither a list, a map nor null as an invalid request
  if (params !== undefined && params.t !== 'array' && params.t !== 'object' && params.t !== 'null') throw new InvalidRequestError('Invalid request');
  const items = params?.t === 'array' ? params.items : undefined;
  switch (shape.kind) {
    case 'empty': {
      if (params?.t === 'object') throw new ParamDecodeError('invalid type: map, expected a sequence');
      for (const item of items ?? []) if (item.t !== 'null') throw new ParamDecodeError(`invalid type: ${unitUnexpected(item)}, expected unit`);
      if (items !== undefined && items.length > 0) throw new ParamDecodeError(`expected params sequence with length 0 but got ${items.length}`);
      return [];
    }
    case 'sequence': {
      if (items === undefined) throw new ParamDecodeError(`invalid type: ${unexpected(params)}, expected a sequence`);
      const values = items.map((item) => codecs[0]!.decode(item));
      if (values.length !== 1) throw new ParamDecodeError(`expected params sequence with length 1 but got ${values.length}`);
      return values;
    }
    case 'array': {
      if (items === undefined) throw new ParamDecodeError(`invalid type: ${unexpected(params)}, expected an array of length 1`);
      if (items.length === 0) throw new ParamDecodeError('invalid length 0, expected an array of length 1');
      const value = codecs[0]!.decode(items[0]!);
      if (items.length > 1) throw new ParamDecodeError(`invalid length ${items.length}, expected fewer elements in array`);
      return [value];
    }
    case 'tuple': {
      const expected = `tuple variant EthRequest::${shape.variant}`;
      if (items === undefined) throw new ParamDecodeError(`invalid type: ${unexpected(params)}, expected ${expected}`);
      const values = codecs.map((codec, i) => {
        const item = items[i];
        if (item !== undefined) return codec.decode(item);
        if (!codec.required) return undefined;
        throw new ParamDecodeError(`invalid length ${i}, expected ${expected} with ${codecs.length} elements`);
      });
      if (items.length > codecs.length) throw new ParamDecodeError(`invalid length ${items.length}, expected fewer elements in array`);
      return values;
    }
  }
}

function unexpected(node: JsonNode | undefined): string {
  return node === undefined ? 'null' : serdeUnexpected(node);
}

/** serde's unit visitor sees an arbitrary-precision number as a "number". */
function unitUnexpected(node: JsonNode): string {
  return node.t === 'number' ? 'number' : serdeUnexpected(node);
}

const U64_MAX = 0xffffffffffffffffn;
const U128_MAX = (1n << 128n) - 1n;
const U256_MAX = (1n << 256n) - 1n;

/** A plain serde u64/usize: a JSON integer that fits; any other number is serde_json's "invalid number". */
export function anvilUint(name: 'u64' | 'usize'): ParamCodec<bigint> {
  return {
    required: true,
    decode(node) {
      if (node.t === 'number') {
        if (/^-?0$|^[1-9]\d*$/.test(node.raw) && BigInt(node.raw) <= U64_MAX) return BigInt(node.raw);
        throw new ParamDecodeError('invalid number');
      }
      throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected ${name}`);
    },
  };
}

/** alloy FixedBytes<N> (const-hex): a hex string, 0x optional, checked for odd length, then length, then digits; or N small integers. */
function anvilFixed(size: 20 | 32): ParamCodec<Uint8Array> {
  const expected = `${size} bytes, represented as a hex string of length ${size * 2}, an array of u8, or raw bytes`;
  return {
    required: true,
    decode(node) {
      if (node.t === 'array') {
        if (node.items.length !== size) throw new ParamDecodeError(`invalid length ${node.items.length}, expected exactly ${size} bytes`);
        return Uint8Array.from(
          node.items.map((item) => {
            if (item.t !== 'number' || !/^\d+$/.test(item.raw) || Number(item.raw) > 255) throw new ParamDecodeError(`invalid type: ${serdeUnexpected(item)}, expected u8`);
            return Number(item.raw);
          }),
        );
      }
      if (node.t !== 'string') throw new ParamDecodeError(`invalid type: ${serdeUnexpected(node)}, expected ${expected}`);
      const digits = node.value.startsWith('0x') ? node.value.slice(2) : node.value;
      if (digits.length % 2 !== 0) throw new ParamDecodeError('odd number of digits');
      if (digits.length !== size * 2) throw new ParamDecodeError('invalid string length');
      const bad = /[^0-9a-fA-F]/.exec(digits);
      if (bad) throw new ParamDecodeError(`invalid character '${bad[0]}' at position ${bad.index}`);
      return hexToBytes(digits);
    },
  };
}

export const anvilHash = anvilFixed(32);
const anvilFixed20 = anvilFixed(20);

/** An address as lowercase 0x hex (the chain index's keys). */
export const anvilAddress: ParamCodec<string> = {
  required: true,
  decode: (node) => hexBytes(anvilFixed20.decode(node)),
};

const NUMERIC = 'data did not match any variant of untagged enum Numeric';

/**
 * foundry common serde_helpers.rs deserialize_number (untagged Numeric: a U256, else a u64): a JSON
 * integer up to u64, or a string ruint reads (0x, 0o, 0b or decimal digits, `_` between them, ""
 * is 0). An integer past u64 that fits a u128 fails in serde's buffering first.
 */
export const anvilNumeric: ParamCodec<bigint> = {
  required: true,
  decode(node) {
    if (node.t === 'number' && /^(?:0|[1-9]\d*)$/.test(node.raw)) {
      const n = BigInt(node.raw);
      if (n <= U64_MAX) return n;
      if (n <= U128_MAX) throw new ParamDecodeError(`invalid type: integer \`${n}\` as u128, expected any value`);
    }
    if (node.t === 'string') {
      const value = ruintFromStr(node.value);
      if (value !== undefined) return value;
    }
    throw new ParamDecodeError(NUMERIC);
  },
};

function ruintFromStr(text: string): bigint | undefined {
  const prefix = text.slice(0, 2).toLowerCase();
  const radix = prefix === '0x' ? 16 : prefix === '0o' ? 8 : prefix === '0b' ? 2 : 10;
  const digits = (radix === 10 ? text : text.slice(2)).replace(/_/g, '');
  const valid = { 16: /^[0-9a-fA-F]*$/, 8: /^[0-7]*$/, 2: /^[01]*$/, 10: /^\d*$/ }[radix]!;
  if (!valid.test(digits)) return undefined;
  let n = 0n;
  for (const c of digits) n = n * BigInt(radix) + BigInt(parseInt(c, radix));
  return n <= U256_MAX ? n : undefined;
}
