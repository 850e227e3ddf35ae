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

/**
 * Never forwarded, whatever --forward says: the node's control methods (go-ethereum's admin, personal,
 * miner and debug_set* APIs) must not be opened to blocktrace's clients.
 */
export const NEVER_FORWARDED = [/^admin_/, /^personal_/, /^miner_/, /^debug_set/];

/** Forwarded by default: the read namespaces and the writes a wallet or `cast send` needs. */
const DEFAULT_FORWARDED = [/^eth_/, /^net_/, /^web3_/, /^txpool_/, /^debug_(get|trace|storageRangeAt|accountRange|dumpBlock|intermediateRoots)/, /^ots_/, /^erigon_/];

/** `--forward` patterns: a method name, or a namespace as `anvil_*`. */
export function forwardPattern(text: string): RegExp {
  const escaped = text.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Why --forward METHOD cannot be taken, or undefined. */
export function forwardRefusal(text: string): string | undefined {
  const probe = text.replace(/\*$/, '');
  if (NEVER_FORWARDED.some((re) => re.test(probe))) return `--forward ${text}: blocktrace never forwards admin_*, personal_*, miner_* or debug_set* methods`;
  if (!/^[A-Za-z0-9_]+\*?$/.test(text)) return `--forward: not a method name or namespace: ${text} (e.g. anvil_mine, anvil_*)`;
  return undefined;
}

export function upstreamForwarder(client: UpstreamClient, extra: readonly string[] = []): Forwarder {
  const allowed = [...DEFAULT_FORWARDED, ...extra.map(forwardPattern)];
  return {
    takes: (method) => !TRACED_HERE.has(method) && !NEVER_FORWARDED.some((re) => re.test(method)) && allowed.some((re) => re.test(method)),
    send: async (message, method) => {
      const answer = await client.forward(message, method);
      if (answer === '') throw new UpstreamError(`upstream ${client.url}: ${method}: empty answer`);
      return answer;
    },
  };
}
