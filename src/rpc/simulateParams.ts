// eth_simulateV1's first parameter as go-ethereum decodes it (internal/ethapi/simulate.go simOpts,
// simBlock; fields matched like encoding/json, exact then case-insensitive).
import type { SimBlockSpec, SimCall } from '../replay/simulate/types.ts';
import { gethCallArgs } from './callParams.ts';
import { decodeBlockOverrides, decodeStateOverrides } from './overrideParams.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { findGoField, ParamDecodeError, type ParamCodec } from './schemas.ts';

export interface SimOptions {
  readonly blocks: readonly SimBlockSpec[];
  readonly traceTransfers: boolean;
  readonly validation: boolean;
  readonly returnFullTransactions: boolean;
}

const OPTION_FIELDS = [['blockStateCalls'], ['traceTransfers'], ['validation'], ['returnFullTransactions']] as const;
const BLOCK_FIELDS = [['blockOverrides'], ['stateOverrides'], ['calls']] as const;

function bool(node: JsonNode, field: string): boolean {
  if (node.t === 'bool') return node.value;
  if (node.t === 'null') return false;
  throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field simOpts.${field} of type bool`);
}

function block(node: JsonNode): SimBlockSpec {
  if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type ethapi.simBlock`);
  let blockOverrides: SimBlockSpec['blockOverrides'];
  let stateOverrides: SimBlockSpec['stateOverrides'];
  let calls: SimCall[] = [];
  for (const [key, value] of node.entries) {
    const field = findGoField(BLOCK_FIELDS, key)?.[0];
    if (field === undefined || value.t === 'null') continue;
    if (field === 'blockOverrides') blockOverrides = decodeBlockOverrides(value, true);
    else if (field === 'stateOverrides') stateOverrides = decodeStateOverrides(value, true);
    else {
      if (value.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${value.t} into Go struct field simBlock.Calls of type []ethapi.TransactionArgs`);
      calls = value.items.map((item) => gethCallArgs.decode(item));
    }
  }
  return { blockOverrides, stateOverrides, calls };
}

export const gethSimOptions: ParamCodec<SimOptions> = {
  required: true,
  decode(node) {
    if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type ethapi.simOpts`);
    let blocks: SimBlockSpec[] = [];
    let traceTransfers = false;
    let validation = false;
    let returnFullTransactions = false;
    for (const [key, value] of node.entries) {
      const field = findGoField(OPTION_FIELDS, key)?.[0];
      if (field === undefined) continue;
      if (field === 'blockStateCalls') {
        if (value.t === 'null') continue;
        if (value.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${value.t} into Go struct field simOpts.blockStateCalls of type []ethapi.simBlock`);
        blocks = value.items.map(block);
      } else if (field === 'traceTransfers') traceTransfers = bool(value, field);
      else if (field === 'validation') validation = bool(value, field);
      else returnFullTransactions = bool(value, field);
    }
    return { blocks, traceTransfers, validation, returnFullTransactions };
  },
};
