// State and block overrides for calls (go-ethereum internal/ethapi/override: StateOverride.Apply,
// BlockOverrides.Apply), applied to a state manager that nothing else reads afterwards and to a
// copy of the block header.
import { type Block, createBlock, createBlockHeader } from '@ethereumjs/block';
import type { StateManagerInterface } from '@ethereumjs/common';
import { Address, createAccount } from '@ethereumjs/util';

export interface AccountOverride {
  readonly nonce?: bigint | undefined;
  readonly code?: Uint8Array | undefined;
  readonly balance?: bigint | undefined;
  /** Replaces the whole storage. */
  readonly state?: ReadonlyMap<string, Uint8Array> | undefined;
  /** Changes the slots named, keeps the rest. */
  readonly stateDiff?: ReadonlyMap<string, Uint8Array> | undefined;
  /** The precompile at this address moves there (eth_simulateV1; 20 bytes). */
  readonly movePrecompileToAddress?: Uint8Array | undefined;
}

/** Address (20 bytes as lowercase hex without 0x) → override; slots keyed the same way (32 bytes). */
export type StateOverrides = ReadonlyMap<string, AccountOverride>;

export interface BlockOverrides {
  readonly number?: bigint | undefined;
  readonly difficulty?: bigint | undefined;
  readonly time?: bigint | undefined;
  readonly gasLimit?: bigint | undefined;
  readonly feeRecipient?: Uint8Array | undefined;
  readonly prevRandao?: Uint8Array | undefined;
  readonly baseFeePerGas?: bigint | undefined;
  /** eth_simulateV1 only (eth_call refuses them, as go-ethereum's BlockOverrides.Apply does). */
  readonly blobBaseFee?: bigint | undefined;
  readonly beaconRoot?: Uint8Array | undefined;
  readonly withdrawals?: readonly Withdrawal[] | undefined;
}

/** An EIP-4895 withdrawal (amount in gwei). */
export interface Withdrawal {
  readonly index: bigint;
  readonly validatorIndex: bigint;
  readonly address: Uint8Array;
  readonly amount: bigint;
}

const fromHex = (hex: string): Uint8Array => Uint8Array.from(Buffer.from(hex, 'hex'));

export async function applyStateOverrides(state: StateManagerInterface, overrides: StateOverrides): Promise<void> {
  for (const [key, o] of overrides) {
    const address = new Address(fromHex(key));
    // an override that sets nothing (only movePrecompileToAddress) creates no account, as in go-ethereum
    if (o.nonce !== undefined || o.balance !== undefined || o.state !== undefined || o.stateDiff !== undefined) {
      const account = (await state.getAccount(address)) ?? createAccount({});
      if (o.nonce !== undefined) account.nonce = o.nonce;
      if (o.balance !== undefined) account.balance = o.balance;
      await state.putAccount(address, account);
    }
    if (o.code !== undefined) await state.putCode(address, o.code);
    if (o.state !== undefined) await state.clearStorage(address);
    for (const slots of [o.state, o.stateDiff]) {
      for (const [slot, value] of slots ?? []) await state.putStorage(address, fromHex(slot), value);
    }
  }
}

/** The block with its header's fields overridden (BlockOverrides.Apply on the block context). */
export function applyBlockOverrides(block: Block, o: BlockOverrides): Block {
  const opts = { common: block.common, skipConsensusFormatValidation: true };
  const h = block.header.toJSON();
  const header = createBlockHeader(
    {
      ...h,
      ...(o.number !== undefined ? { number: o.number } : {}),
      ...(o.difficulty !== undefined ? { difficulty: o.difficulty } : {}),
      ...(o.time !== undefined ? { timestamp: o.time } : {}),
      ...(o.gasLimit !== undefined ? { gasLimit: o.gasLimit } : {}),
      ...(o.feeRecipient !== undefined ? { coinbase: o.feeRecipient } : {}),
      ...(o.prevRandao !== undefined ? { mixHash: o.prevRandao } : {}),
      ...(o.baseFeePerGas !== undefined ? { baseFeePerGas: o.baseFeePerGas } : {}),
    },
    opts,
  );
  return createBlock({ header }, opts);
}
