// eth_call's TransactionArgs (go-ethereum internal/ethapi/transaction_args.go) after decoding: the
// fields a read-only call uses. `data` and `input` may both be given only when equal.
import type { JsonNode } from './rawJson.ts';
import { ParamDecodeError, type ParamCodec } from './schemas.ts';

export interface CallArgs {
  readonly from: Uint8Array | undefined;
  readonly to: Uint8Array | undefined;
  readonly gas: bigint | undefined;
  readonly gasPrice: bigint | undefined;
  readonly value: bigint | undefined;
  readonly data: Uint8Array | undefined;
}

function bytesField(name: string, node: JsonNode, size?: number): Uint8Array {
  if (node.t !== 'string' || !/^0[xX]([0-9a-fA-F]{2})*$/.test(node.value)) throw new ParamDecodeError(`invalid ${name}: ${node.raw}`);
  const bytes = Uint8Array.from(Buffer.from(node.value.slice(2), 'hex'));
  if (size !== undefined && bytes.length !== size) throw new ParamDecodeError(`hex string has length ${bytes.length * 2}, want ${size * 2} for common.Address`);
  return bytes;
}

function quantityField(name: string, node: JsonNode): bigint {
  if (node.t !== 'string' || !/^0[xX](0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(node.value)) throw new ParamDecodeError(`invalid ${name}: ${node.raw}`);
  return BigInt(node.value);
}

export const gethCallArgs: ParamCodec<CallArgs> = {
  required: true,
  decode(node) {
    if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type ethapi.TransactionArgs`);
    const f: { -readonly [K in keyof CallArgs]: CallArgs[K] } = { from: undefined, to: undefined, gas: undefined, gasPrice: undefined, value: undefined, data: undefined };
    let input: Uint8Array | undefined;
    for (const [key, value] of node.entries) {
      if (value.t === 'null') continue;
      switch (key.toLowerCase()) {
        case 'from': f.from = bytesField('from', value, 20); break;
        case 'to': f.to = bytesField('to', value, 20); break;
        case 'gas': f.gas = quantityField('gas', value); break;
        case 'gasprice': f.gasPrice = quantityField('gasPrice', value); break;
        case 'value': f.value = quantityField('value', value); break;
        case 'data': f.data = bytesField('data', value); break;
        case 'input': input = bytesField('input', value); break;
      }
    }
    if (input !== undefined && f.data !== undefined && Buffer.compare(input, f.data) !== 0) {
      throw new ParamDecodeError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
    }
    return { ...f, data: input ?? f.data };
  },
};

/** An optional argument blocktrace does not read yet: whether it was given (not absent, not null). */
export const givenParam: ParamCodec<boolean> = {
  required: false,
  decode: (node) => node.t !== 'null',
};
