// eth_call's TransactionArgs (go-ethereum internal/ethapi/transaction_args.go) after decoding: the
// fields a read-only call uses. `data` and `input` may both be given only when equal.
import { ServerError } from '../errors/rpcErrors.ts';
import type { Authorization } from '../replay/authorizations.ts';
import type { AccessTuple, CallRequest, TransactionArgs } from '../replay/message.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { ParamDecodeError, type ParamCodec } from './schemas.ts';

/** A call object as go-ethereum's TransactionArgs holds it after decoding (replay/message.ts). */
export type CallArgs = TransactionArgs;

function bytesField(name: string, node: JsonNode, size?: number): Uint8Array {
  if (node.t !== 'string' || !/^0[xX]([0-9a-fA-F]{2})*$/.test(node.value)) throw new ParamDecodeError(`invalid ${name}: ${node.raw}`);
  const bytes = Uint8Array.from(Buffer.from(node.value.slice(2), 'hex'));
  if (size !== undefined && bytes.length !== size) {
    throw new ParamDecodeError(`hex string has length ${bytes.length * 2}, want ${size * 2} for common.${size === 32 ? 'Hash' : 'Address'}`);
  }
  return bytes;
}

/** core/types/gen_access_tuple.go UnmarshalJSON: both fields required, keys 32 bytes. */
function accessListField(node: JsonNode): AccessTuple[] {
  if (node.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field TransactionArgs.accessList of type types.AccessList`);
  return node.items.map((item) => {
    if (item.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${item.t} into Go value of type types.AccessTuple`);
    let address: Uint8Array | undefined;
    let storageKeys: Uint8Array[] | undefined;
    for (const [key, value] of item.entries) {
      if (value.t === 'null') continue;
      if (key.toLowerCase() === 'address') address = bytesField('address', value, 20);
      if (key.toLowerCase() === 'storagekeys') {
        if (value.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${value.t} into Go struct field .storageKeys of type []common.Hash`);
        storageKeys = value.items.map((k) => bytesField('storageKeys', k, 32));
      }
    }
    if (address === undefined) throw new ParamDecodeError("missing required field 'address' for AccessTuple");
    if (storageKeys === undefined) throw new ParamDecodeError("missing required field 'storageKeys' for AccessTuple");
    return { address, storageKeys };
  });
}

const AUTH_FIELDS = ['chainId', 'address', 'nonce', 'yParity', 'r', 's'] as const;

/** core/types/gen_authorization.go UnmarshalJSON: every field required. */
function authorizationListField(node: JsonNode): Authorization[] {
  if (node.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field TransactionArgs.authorizationList of type []types.SetCodeAuthorization`);
  return node.items.map((item) => {
    if (item.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${item.t} into Go value of type types.SetCodeAuthorization`);
    const found: Partial<Record<(typeof AUTH_FIELDS)[number], JsonNode>> = {};
    for (const [key, value] of item.entries) {
      const field = AUTH_FIELDS.find((f) => f.toLowerCase() === key.toLowerCase());
      if (field !== undefined && value.t !== 'null') found[field] = value;
    }
    for (const field of AUTH_FIELDS) {
      if (found[field] === undefined) throw new ParamDecodeError(`missing required field '${field === 'yParity' ? 'yParity' : field}' for SetCodeAuthorization`);
    }
    return {
      chainId: quantityField('chainId', found.chainId!),
      address: bytesField('address', found.address!, 20),
      nonce: quantityField('nonce', found.nonce!),
      yParity: quantityField('yParity', found.yParity!),
      r: quantityField('r', found.r!),
      s: quantityField('s', found.s!),
    };
  });
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
        case 'maxfeepergas': f.maxFeePerGas = quantityField('maxFeePerGas', value); break;
        case 'maxpriorityfeepergas': f.maxPriorityFeePerGas = quantityField('maxPriorityFeePerGas', value); break;
        case 'value': f.value = quantityField('value', value); break;
        case 'data': f.data = bytesField('data', value); break;
        case 'input': input = bytesField('input', value); break;
        case 'nonce': f.nonce = quantityField('nonce', value); break;
        case 'chainid': f.chainId = quantityField('chainId', value); break;
        case 'maxfeeperblobgas': f.maxFeePerBlobGas = quantityField('maxFeePerBlobGas', value); break;
        case 'blobversionedhashes':
          if (value.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${value.t} into Go struct field TransactionArgs.blobVersionedHashes of type []common.Hash`);
          f.blobVersionedHashes = value.items.map((h) => bytesField('blobVersionedHashes', h, 32));
          break;
        case 'accesslist': f.accessList = accessListField(value); break;
        case 'authorizationlist': f.authorizations = authorizationListField(value); break;
      }
    }
    if (input !== undefined && f.data !== undefined && Buffer.compare(input, f.data) !== 0) {
      throw new ParamDecodeError('both "data" and "input" are set and not equal. Please use "input" to pass transaction call data');
    }
    if (f.gasPrice !== undefined && (f.maxFeePerGas !== undefined || f.maxPriorityFeePerGas !== undefined)) {
      throw new ParamDecodeError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified');
    }
    return { ...f, data: input ?? f.data };
  },
};

/** go-ethereum's default --rpc.gascap (reth's RPC_DEFAULT_GAS_CAP is the same). */
export const RPC_GAS_CAP = 50_000_000n;

/**
 * The message of a call (TransactionArgs.CallDefaults + ToMessage): gas defaults to the cap and is
 * capped by it; the gas price is the legacy one, or tip + base fee up to the fee cap (0 when both
 * are 0), or 0.
 */
export function callRequest(args: CallArgs, baseFee: bigint | undefined, gasCap: bigint = RPC_GAS_CAP, chainId?: bigint): CallRequest {
  // TransactionArgs.CallDefaults: a chainId must be the node's
  if (chainId !== undefined && args.chainId !== undefined && args.chainId !== chainId) {
    throw new ServerError(`chainId does not match node's (have=${args.chainId}, want=${chainId})`);
  }
  const gas = args.gas === undefined || args.gas > gasCap ? gasCap : args.gas;
  let gasPrice = args.gasPrice ?? 0n;
  if (baseFee !== undefined && args.gasPrice === undefined) {
    const cap = args.maxFeePerGas ?? 0n;
    const tip = args.maxPriorityFeePerGas ?? 0n;
    gasPrice = cap === 0n && tip === 0n ? 0n : tip + baseFee < cap ? tip + baseFee : cap;
  }
  return {
    from: args.from ?? new Uint8Array(20),
    to: args.to,
    gas,
    gasPrice,
    value: args.value ?? 0n,
    data: args.data ?? new Uint8Array(),
    accessList: args.accessList,
    authorizations: args.authorizations,
    blobHashes: args.blobVersionedHashes,
    blobFeeCap: args.maxFeePerBlobGas,
  };
}
