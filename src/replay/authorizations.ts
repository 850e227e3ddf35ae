// EIP-7702 authorizations of a call, applied as go-ethereum's state transition does before the
// call runs (core/state_transition.go validateAuthorization, applyAuthorization before Amsterdam):
// an invalid one (another chain, a bad signature, an authority with code or another nonce) is
// skipped; a valid one sets the authority's code to the delegation and bumps its nonce, and an
// authority that already existed refunds CallNewAccountGas - TxAuthTupleGas.
import { type Address, type EOACode7702AuthorizationListBytesItem, bigIntToUnpaddedBytes, concatBytes, createAccount, eoaCode7702RecoverAuthority, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import type { StateManagerInterface } from '@ethereumjs/common';

export interface Authorization {
  readonly chainId: bigint;
  readonly address: Uint8Array;
  readonly nonce: bigint;
  readonly yParity: bigint;
  readonly r: bigint;
  readonly s: bigint;
}

/** params.CallNewAccountGas: each authorization's intrinsic gas. */
export const PER_AUTH_GAS = 25000n;
/** params.CallNewAccountGas - params.TxAuthTupleGas. */
const EXISTING_AUTHORITY_REFUND = 12500n;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const DELEGATION_PREFIX = Uint8Array.of(0xef, 0x01, 0x00);

const isDelegation = (code: Uint8Array): boolean => code.length === 23 && equalsBytes(code.subarray(0, 3), DELEGATION_PREFIX);

/** The authorization as an ethereumjs EIP-7702 transaction lists it. */
export function authorizationTuple(auth: Authorization): EOACode7702AuthorizationListBytesItem {
  return [bigIntToUnpaddedBytes(auth.chainId), auth.address, bigIntToUnpaddedBytes(auth.nonce), bigIntToUnpaddedBytes(auth.yParity), bigIntToUnpaddedBytes(auth.r), bigIntToUnpaddedBytes(auth.s)];
}

/** types.SetCodeAuthorization.Authority: signature values in range (low s), then the recovered signer. */
function authority(auth: Authorization): Address | undefined {
  if (auth.yParity > 1n || auth.r === 0n || auth.s === 0n || auth.r >= SECP256K1_N || auth.s > SECP256K1_N / 2n) return undefined;
  try {
    return eoaCode7702RecoverAuthority(authorizationTuple(auth));
  } catch {
    return undefined;
  }
}

/**
 * Applies the valid authorizations in order; `warm` is told each recovered authority (go-ethereum
 * adds it to the access list even when the authorization is then refused). Returns the refund.
 */
export async function applyAuthorizations(
  state: StateManagerInterface,
  chainId: bigint,
  auths: readonly Authorization[],
  warm: (address: Address) => void,
): Promise<bigint> {
  let refund = 0n;
  for (const auth of auths) {
    if (auth.chainId !== 0n && auth.chainId !== chainId) continue;
    if (auth.nonce >= 2n ** 64n - 1n) continue;
    const signer = authority(auth);
    if (signer === undefined) continue;
    warm(signer);
    const account = await state.getAccount(signer);
    const code = account === undefined || equalsBytes(account.codeHash, KECCAK256_NULL) ? new Uint8Array() : await state.getCode(signer);
    if (code.length !== 0 && !isDelegation(code)) continue;
    if ((account?.nonce ?? 0n) !== auth.nonce) continue;
    if (account !== undefined) refund += EXISTING_AUTHORITY_REFUND;
    const updated = account ?? createAccount({});
    updated.nonce = auth.nonce + 1n;
    await state.putAccount(signer, updated);
    const zero = auth.address.every((b) => b === 0);
    await state.putCode(signer, zero ? new Uint8Array() : concatBytes(DELEGATION_PREFIX, auth.address));
  }
  return refund;
}
