// eth_getStorageValues' request: go-ethereum's map[common.Address][]common.Hash as encoding/json
// decodes it (internal/ethapi/api.go GetStorageValues). A key is an address in text form (0x
// prefix required); an address given twice keeps its last list, as a Go map does.
import { bytesToHex } from '@ethereumjs/util';
import type { JsonNode } from '../encoding/rawJson.ts';
import { gethHash, hexToBytes, ParamDecodeError, type ParamCodec } from './schemas.ts';

export interface StorageRequest {
  readonly address: Uint8Array;
  readonly slots: readonly Uint8Array[];
}

const typeError = (node: JsonNode, goType: string): ParamDecodeError =>
  new ParamDecodeError(`json: cannot unmarshal ${node.t === 'bool' ? 'bool' : node.t} into Go value of type ${goType}`);

export const gethStorageRequests: ParamCodec<StorageRequest[]> = {
  required: true,
  decode(node) {
    if (node.t === 'null') return [];
    if (node.t !== 'object') throw typeError(node, 'map[common.Address][]common.Hash');
    const byAddress = new Map<string, StorageRequest>();
    for (const [key, value] of node.entries) {
      if (!/^0[xX][0-9a-fA-F]{40}$/.test(key)) throw new ParamDecodeError(`json: cannot unmarshal string ${key} into Go value of type common.Address`);
      const address = hexToBytes(key.slice(2));
      let slots: Uint8Array[] = [];
      if (value.t === 'array') slots = value.items.map((item) => gethHash.decode(item));
      else if (value.t !== 'null') throw typeError(value, '[]common.Hash');
      byAddress.set(bytesToHex(address), { address, slots });
    }
    return [...byAddress.values()];
  },
};
