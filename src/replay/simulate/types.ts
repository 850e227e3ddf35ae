// eth_simulateV1's request and result, neutral of JSON (go-ethereum internal/ethapi/simulate.go
// simOpts, simBlock, simCallResult).
import type { Block } from '@ethereumjs/block';
import type { Failure, TxRecording } from '../../trace/types.ts';
import type { TransactionArgs } from '../message.ts';
import type { BlockOverrides, StateOverrides } from '../overrides.ts';

/** One call of a simulated block, as TransactionArgs before CallDefaults. */
export type SimCall = TransactionArgs;

export interface SimBlockSpec {
  readonly blockOverrides?: BlockOverrides | undefined;
  readonly stateOverrides?: StateOverrides | undefined;
  readonly calls: readonly SimCall[];
}

export interface SimRequest {
  readonly blocks: readonly SimBlockSpec[];
  readonly traceTransfers: boolean;
  readonly validation: boolean;
  /** The RPC gas cap: the budget of every call of the simulation together. */
  readonly gasCap: bigint;
}

export type SimCallError =
  | { readonly kind: 'reverted'; readonly returnData: Uint8Array }
  /** A VM error; `capped`: the call's gas was cut to the RPC gas cap. */
  | { readonly kind: 'failed'; readonly failure: Failure; readonly capped: boolean };

export interface SimCallResult {
  readonly returnData: Uint8Array;
  /** The call's recording (its call tree and logs), from which its logs are rendered. */
  readonly recording: TxRecording;
  readonly gasUsed: bigint;
  readonly maxUsedGas: bigint;
  readonly error?: SimCallError | undefined;
}

export interface SimBlockResult {
  readonly block: Block;
  readonly calls: readonly SimCallResult[];
  /** The sender of each transaction, in order. */
  readonly senders: readonly Uint8Array[];
}

export { SimulationError } from '../../errors/rpcErrors.ts';
