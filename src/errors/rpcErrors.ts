// Errors with their JSON-RPC code on the class (viem src/errors/rpc.ts), turned into the wire
// `{"code":…,"message":…}` object in one place: `toWireError`. Anything that is not an RpcError is
// an internal failure: its detail goes to the log, never to the client.

export abstract class RpcError extends Error {
  abstract readonly code: number;
  /** The error's `data` member, when it has one (go-ethereum rpc.DataError). */
  readonly data?: string | undefined;
}

/** -32700: the body is not JSON (go-ethereum rpc/server.go messageForReadError). */
export class ParseError extends RpcError {
  static readonly code = -32700;
  override readonly name = 'ParseError';
  readonly code = ParseError.code;
  constructor(message = 'parse error') {
    super(message);
  }
}

/** -32600: JSON, but not a request (go-ethereum rpc/handler.go: "invalid request", "empty batch"). */
export class InvalidRequestError extends RpcError {
  static readonly code = -32600;
  override readonly name = 'InvalidRequestError';
  readonly code = InvalidRequestError.code;
  constructor(message = 'invalid request') {
    super(message);
  }
}

/** -32601 (go-ethereum rpc/errors.go methodNotFoundError). */
export class MethodNotFoundError extends RpcError {
  static readonly code = -32601;
  override readonly name = 'MethodNotFoundError';
  readonly code = MethodNotFoundError.code;
  constructor(method: string) {
    super(`the method ${method} does not exist/is not available`);
  }
}

/** -32602: the params could not be decoded or are not acceptable. */
export class InvalidParamsError extends RpcError {
  static readonly code = -32602;
  override readonly name = 'InvalidParamsError';
  readonly code = InvalidParamsError.code;
}

/** -32603: a handler failed unexpectedly (go-ethereum rpc/service.go: "method handler crashed"). */
export class InternalError extends RpcError {
  static readonly code = -32603;
  override readonly name = 'InternalError';
  readonly code = InternalError.code;
  constructor() {
    super('method handler crashed');
  }
}

/** -32000: go-ethereum's default code for an error a method returns ("block #5 not found"). */
export class ServerError extends RpcError {
  static readonly code = -32000;
  override readonly name = 'ServerError';
  readonly code = ServerError.code;
}

/** -32000 "execution timeout": a trace ran past its deadline (go-ethereum eth/tracers/api.go traceTx). */
export class ExecutionTimeoutError extends RpcError {
  static readonly code = -32000;
  override readonly name = 'ExecutionTimeoutError';
  readonly code = ExecutionTimeoutError.code;
  constructor() {
    super('execution timeout');
  }
}

/** -32003 "response too large" (go-ethereum rpc/errors.go errcodeResponseTooLarge, errMsgResponseTooLarge). */
export class ResponseTooLargeError extends RpcError {
  static readonly code = -32003;
  override readonly name = 'ResponseTooLargeError';
  readonly code = ResponseTooLargeError.code;
  constructor() {
    super('response too large');
  }
}

/** -32001: reth's ResourceNotFound (rpc-eth-types error/mod.rs, "block not found: 0x3f4"). */
export class ResourceNotFoundError extends RpcError {
  static readonly code = -32001;
  override readonly name = 'ResourceNotFoundError';
  readonly code = ResourceNotFoundError.code;
}

/** -38026: a request over one of go-ethereum's size limits (internal/ethapi/errors.go clientLimitExceededError). */
export class ClientLimitExceededError extends RpcError {
  static readonly code = -38026;
  override readonly name = 'ClientLimitExceededError';
  readonly code = ClientLimitExceededError.code;
}

/**
 * eth_simulateV1 refusing a request as a whole, with go-ethereum's code for the reason
 * (internal/ethapi/errors.go: -38010 … -38026, -32602, -32603).
 */
export class SimulationError extends RpcError {
  override readonly name = 'SimulationError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** -32000: a write (eth_sendRawTransaction, eth_sign…) to a fixture chain, whose blocks are recorded. */
export class ReadOnlyChainError extends RpcError {
  static readonly code = -32000;
  override readonly name = 'ReadOnlyChainError';
  readonly code = ReadOnlyChainError.code;
  constructor(method: string) {
    super(`${method} is not available: the chain is a read-only fixture (blocktrace replays recorded blocks; serve --upstream URL sends writes to a node)`);
  }
}

export interface WireError {
  readonly code: number;
  readonly message: string;
  readonly data?: string | undefined;
}

/** 3: the call reverted (go-ethereum internal/ethapi/errors.go revertError), its return data as `data`. */
export class ExecutionRevertedError extends RpcError {
  static readonly code = 3;
  override readonly name = 'ExecutionRevertedError';
  readonly code = ExecutionRevertedError.code;
  constructor(reason: string | undefined, override readonly data: string) {
    super(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`);
  }
}

/** The one mapping from a thrown value to a JSON-RPC error object. */
export function toWireError(err: unknown, log: (line: string) => void): WireError {
  if (err instanceof RpcError) return err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data };
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  log(`internal error: ${detail}`);
  const internal = new InternalError();
  return { code: internal.code, message: internal.message };
}

/** -32003: reth's TransactionRejected (rpc-eth-types error/mod.rs RpcInvalidTransactionError::error_code). */
export class TransactionRejectedError extends RpcError {
  static readonly code = -32003;
  override readonly name = 'TransactionRejectedError';
  readonly code = TransactionRejectedError.code;
}

/** -32603 "Required data unavailable": anvil's BlockchainError::DataUnavailable (anvil src/eth/error.rs). */
export class DataUnavailableError extends RpcError {
  static readonly code = -32603;
  override readonly name = 'DataUnavailableError';
  readonly code = DataUnavailableError.code;
  constructor() {
    super('Required data unavailable');
  }
}
