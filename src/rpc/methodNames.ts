// Lists of method names that more than one place needs, in a module that imports nothing, so that
// `--help` (cli/methodList.ts) names them without loading the dispatcher.

/** The tracing methods whose results depend only on the (immutable) chain and their params. */
export const TRACE_METHODS = [
  'debug_traceBlockByNumber',
  'debug_traceBlockByHash',
  'debug_traceTransaction',
  'trace_block',
  'trace_transaction',
  'trace_replayBlockTransactions',
  'trace_replayTransaction',
  'trace_filter',
  'trace_get',
] as const;

/** The methods that would send or sign a transaction. */
export const WRITE_METHODS = [
  'eth_sendRawTransaction',
  'eth_sendRawTransactionSync',
  'eth_sendTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_signTypedData',
  'eth_signTypedData_v3',
  'eth_signTypedData_v4',
  'personal_sign',
  'personal_sendTransaction',
] as const;
