// State and block overrides as go-ethereum decodes them (internal/ethapi/override: StateOverride is
// map[common.Address]OverrideAccount, BlockOverrides); reth reads the same JSON (alloy
// StateOverride, BlockOverrides). Keys are matched like encoding/json: exact, then case-insensitive.
import type { AccountOverride, BlockOverrides, StateOverrides, Withdrawal } from '../replay/overrides.ts';
import type { JsonNode } from '../encoding/rawJson.ts';
import { findGoField, gethTraceConfig, ParamDecodeError, type ParamCodec, type TraceConfig } from './schemas.ts';

function hexData(node: JsonNode, what: string, size?: number): Uint8Array {
  if (node.t !== 'string' || !/^0[xX]([0-9a-fA-F]{2})*$/.test(node.value)) throw new ParamDecodeError(`invalid ${what}: ${node.raw}`);
  const bytes = Uint8Array.from(Buffer.from(node.value.slice(2), 'hex'));
  if (size !== undefined && bytes.length !== size) throw new ParamDecodeError(`hex string has length ${bytes.length * 2}, want ${size * 2} for ${what}`);
  return bytes;
}

function hexBig(node: JsonNode, what: string, bits = 256): bigint {
  if (node.t !== 'string' || !/^0[xX](0|[1-9a-fA-F][0-9a-fA-F]*)$/.test(node.value)) throw new ParamDecodeError(`invalid ${what}: ${node.raw}`);
  const n = BigInt(node.value.replace(/^0X/, '0x'));
  if (n >= 1n << BigInt(bits)) throw new ParamDecodeError(`invalid ${what}: hex number > ${bits} bits`);
  return n;
}

/** An address or 32-byte key: 0x + hex, left-padded as go-ethereum's SetBytes does for short input. */
function key(text: string, size: number, what: string): string {
  if (!/^0[xX][0-9a-fA-F]*$/.test(text)) throw new ParamDecodeError(`invalid ${what} ${JSON.stringify(text)}`);
  const hex = text.slice(2).toLowerCase();
  if (hex.length > size * 2 || hex.length % 2 !== 0) throw new ParamDecodeError(`hex string has length ${hex.length}, want ${size * 2} for ${what}`);
  return hex.padStart(size * 2, '0');
}

function slots(node: JsonNode, field: string): Map<string, Uint8Array> {
  if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field OverrideAccount.${field} of type map[common.Hash]common.Hash`);
  const out = new Map<string, Uint8Array>();
  for (const [k, v] of node.entries) out.set(key(k, 32, 'common.Hash'), hexData(v, 'common.Hash', 32));
  return out;
}

const ACCOUNT_FIELDS = [['nonce'], ['code'], ['balance'], ['state'], ['stateDiff'], ['movePrecompileToAddress']] as const;

function account(address: string, node: JsonNode, allowMove: boolean): AccountOverride {
  if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type override.OverrideAccount`);
  const o: { -readonly [K in keyof AccountOverride]: AccountOverride[K] } = {};
  for (const [k, v] of node.entries) {
    const field = findGoField(ACCOUNT_FIELDS, k)?.[0];
    if (field === undefined || v.t === 'null') continue;
    switch (field) {
      case 'nonce': o.nonce = hexBig(v, 'nonce', 64); break;
      case 'code': o.code = hexData(v, 'code'); break;
      case 'balance': o.balance = hexBig(v, 'balance'); break;
      case 'state': o.state = slots(v, 'State'); break;
      case 'stateDiff': o.stateDiff = slots(v, 'StateDiff'); break;
      case 'movePrecompileToAddress':
        if (!allowMove) throw new ParamDecodeError('movePrecompileToAddress is not supported by blocktrace');
        o.movePrecompileToAddress = hexData(v, 'common.Address', 20);
        break;
    }
  }
  if (o.state !== undefined && o.stateDiff !== undefined) throw new ParamDecodeError(`account 0x${address} has both 'state' and 'stateDiff'`);
  return o;
}

/** StateOverride; `allowMove`: also movePrecompileToAddress (eth_simulateV1). */
export function decodeStateOverrides(node: JsonNode, allowMove = false): StateOverrides | undefined {
  if (node.t === 'null') return undefined;
  if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type override.StateOverride`);
  const out = new Map<string, AccountOverride>();
  for (const [k, v] of node.entries) {
    const address = key(k, 20, 'common.Address');
    out.set(address, account(address, v, allowMove));
  }
  return out;
}

const BLOCK_FIELDS = [['number'], ['difficulty'], ['time'], ['gasLimit'], ['feeRecipient'], ['prevRandao'], ['baseFeePerGas'], ['blobBaseFee'], ['beaconRoot'], ['withdrawals']] as const;

function withdrawals(node: JsonNode): Withdrawal[] {
  if (node.t !== 'array') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go struct field BlockOverrides.Withdrawals of type types.Withdrawals`);
  return node.items.map((item) => {
    if (item.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${item.t} into Go value of type types.Withdrawal`);
    const w: { index: bigint; validatorIndex: bigint; address: Uint8Array; amount: bigint } = { index: 0n, validatorIndex: 0n, address: new Uint8Array(20), amount: 0n };
    for (const [k, v] of item.entries) {
      const field = findGoField([['index'], ['validatorIndex'], ['address'], ['amount']] as const, k)?.[0];
      if (field === 'address') w.address = hexData(v, 'common.Address', 20);
      else if (field !== undefined) w[field] = hexBig(v, field, 64);
    }
    return w;
  });
}

/** BlockOverrides; `all`: also blobBaseFee, beaconRoot and withdrawals (eth_simulateV1). */
export function decodeBlockOverrides(node: JsonNode, all = false): BlockOverrides | undefined {
  if (node.t === 'null') return undefined;
  if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type override.BlockOverrides`);
  const o: { -readonly [K in keyof BlockOverrides]: BlockOverrides[K] } = {};
  for (const [k, v] of node.entries) {
    const field = findGoField(BLOCK_FIELDS, k)?.[0];
    if (field === undefined || v.t === 'null') continue;
    switch (field) {
      case 'number': o.number = hexBig(v, 'number'); break;
      case 'difficulty': o.difficulty = hexBig(v, 'difficulty'); break;
      case 'time': o.time = hexBig(v, 'time', 64); break;
      case 'gasLimit': o.gasLimit = hexBig(v, 'gasLimit', 64); break;
      case 'feeRecipient': o.feeRecipient = hexData(v, 'common.Address', 20); break;
      case 'prevRandao': o.prevRandao = hexData(v, 'common.Hash', 32); break;
      case 'baseFeePerGas': o.baseFeePerGas = hexBig(v, 'baseFeePerGas'); break;
      default:
        if (all && field === 'blobBaseFee') o.blobBaseFee = hexBig(v, 'blobBaseFee');
        else if (all && field === 'beaconRoot') o.beaconRoot = hexData(v, 'common.Hash', 32);
        else if (all && field === 'withdrawals') o.withdrawals = withdrawals(v);
        else throw new ParamDecodeError(`block override ${field} is not supported by blocktrace (supported: number, difficulty, time, gasLimit, feeRecipient, prevRandao, baseFeePerGas)`);
    }
  }
  return o;
}

export const gethStateOverrides: ParamCodec<StateOverrides | undefined> = { required: false, decode: (node) => decodeStateOverrides(node) };
export const gethBlockOverrides: ParamCodec<BlockOverrides | undefined> = { required: false, decode: (node) => decodeBlockOverrides(node) };

/** eth/tracers TraceCallConfig: TraceConfig plus stateOverrides, blockOverrides and txIndex. */
export interface TraceCallConfig {
  readonly trace: TraceConfig | undefined;
  readonly stateOverrides: StateOverrides | undefined;
  readonly blockOverrides: BlockOverrides | undefined;
  readonly txIndex: bigint | undefined;
}

const CALL_CONFIG_FIELDS = [['stateOverrides'], ['blockOverrides'], ['txIndex']] as const;

export const gethTraceCallConfig: ParamCodec<TraceCallConfig | undefined> = {
  required: false,
  decode(node) {
    if (node.t === 'null') return undefined;
    if (node.t !== 'object') throw new ParamDecodeError(`json: cannot unmarshal ${node.t} into Go value of type tracers.TraceCallConfig`);
    const trace = gethTraceConfig.decode(node);
    const out: { -readonly [K in keyof TraceCallConfig]: TraceCallConfig[K] } = { trace, stateOverrides: undefined, blockOverrides: undefined, txIndex: undefined };
    for (const [k, v] of node.entries) {
      const field = findGoField(CALL_CONFIG_FIELDS, k)?.[0];
      if (field === 'stateOverrides') out.stateOverrides = decodeStateOverrides(v);
      else if (field === 'blockOverrides') out.blockOverrides = decodeBlockOverrides(v);
      else if (field === 'txIndex' && v.t !== 'null') out.txIndex = hexBig(v, 'txIndex', 64);
    }
    return out;
  },
};
