// Upstream mode answers the tracing methods itself and passes every other call to the upstream node
// unchanged (eth_*, net_*, anvil_*, …): clients see the node's own answers for those.
import { UpstreamError } from '../errors/upstreamError.ts';
import type { Forwarder } from '../rpc/context.ts';
import type { UpstreamClient } from './client.ts';

/** Answered here, from blocks and state read from the upstream. */
const TRACED_HERE = new Set([
  'debug_traceBlockByNumber', 'debug_traceBlockByHash', 'debug_traceTransaction', 'debug_traceCall',
  'trace_block', 'trace_transaction', 'trace_replayBlockTransactions', 'trace_replayTransaction',
  'trace_filter', 'trace_get', 'trace_call', 'trace_callMany',
  // subscriptions live on this server's own connections (the node is polled for new blocks)
  'eth_subscribe', 'eth_unsubscribe',
]);

export function upstreamForwarder(client: UpstreamClient): Forwarder {
  return {
    takes: (method) => !TRACED_HERE.has(method),
    send: async (message, method) => {
      const answer = await client.forward(message, method);
      if (answer === '') throw new UpstreamError(`upstream ${client.url}: ${method}: empty answer`);
      return answer;
    },
  };
}
