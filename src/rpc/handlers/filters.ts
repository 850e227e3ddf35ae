// eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter, eth_getFilterChanges,
// eth_getFilterLogs, eth_uninstallFilter as go-ethereum answers them (eth/filters/api.go). On a
// fixture chain no block is ever added, so a filter's changes are always empty; eth_getFilterLogs
// answers the filter's criteria over the chain as eth_getLogs does. (Upstream mode forwards these to
// the node, whose chain grows.)
import { ServerError } from '../../errors/rpcErrors.ts';
import type { RpcContext } from '../context.ts';
import type { FilterCriteria } from '../filterParams.ts';
import { type Filter, FilterLimitError } from '../filters/registry.ts';
import { ethGetLogs } from './logs.ts';

/** eth/filters/api.go errFilterNotFound. */
const notFound = (): ServerError => new ServerError('filter not found');

function install(ctx: RpcContext, filter: Filter): string {
  try {
    return ctx.filters.install(filter);
  } catch (err) {
    if (err instanceof FilterLimitError) throw new ServerError(err.message);
    throw err;
  }
}

export const ethNewFilter = ([criteria]: [FilterCriteria], ctx: RpcContext): string => install(ctx, { kind: 'logs', criteria });

export const ethNewBlockFilter = (_: [], ctx: RpcContext): string => install(ctx, { kind: 'blocks' });

export const ethNewPendingTransactionFilter = (_: [unknown?], ctx: RpcContext): string => install(ctx, { kind: 'pending' });

/** The changes since the last poll: logs for a log filter, block or transaction hashes otherwise. */
export function ethGetFilterChanges([id]: [string], ctx: RpcContext): unknown[] {
  if (ctx.filters.poll(id) === undefined) throw notFound();
  return [];
}

export function ethGetFilterLogs([id]: [string], ctx: RpcContext): Record<string, unknown>[] {
  const filter = ctx.filters.poll(id);
  if (filter === undefined || filter.kind !== 'logs') throw notFound();
  return ethGetLogs([filter.criteria], ctx);
}

export const ethUninstallFilter = ([id]: [string], ctx: RpcContext): boolean => ctx.filters.uninstall(id);
