// eth_subscribe and eth_unsubscribe (go-ethereum eth/filters/api.go NewHeads, Logs,
// NewPendingTransactions; rpc/handler.go for the errors): only over a connection that carries
// notifications; over HTTP go-ethereum answers "notifications not supported".
import { RpcError, ServerError } from '../../errors/rpcErrors.ts';
import type { RpcContext } from '../context.ts';
import { gethFilterCriteria } from '../filterParams.ts';
import type { JsonNode } from '../../encoding/rawJson.ts';
import { ParamDecodeError } from '../schemas.ts';
import { MAX_SUBSCRIPTIONS_PER_CONNECTION, subscribe, type SubscriptionKind } from '../subscriptions.ts';

/** rpc/errors.go: -32601 for both (ErrNotificationsUnsupported, a missing subscription kind). */
class SubscriptionError extends RpcError {
  readonly code = -32601;
  override readonly name = 'SubscriptionError';
}

const KINDS: readonly SubscriptionKind[] = ['newHeads', 'logs', 'newPendingTransactions', 'syncing'];

export function ethSubscribe([kind, options]: [string, JsonNode | undefined], ctx: RpcContext): string {
  const session = ctx.session;
  if (session === undefined) throw new SubscriptionError('notifications not supported');
  const found = KINDS.find((k) => k === kind);
  if (found === undefined) throw new SubscriptionError(`no ${JSON.stringify(kind)} subscription in eth namespace`);
  if (session.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) {
    throw new ServerError(`too many subscriptions on this connection (at most ${MAX_SUBSCRIPTIONS_PER_CONNECTION})`);
  }
  if (found !== 'logs') return subscribe(session, found);
  let criteria;
  try {
    criteria = options === undefined || options.t === 'null' ? gethFilterCriteria.decode({ t: 'object', entries: [], raw: '{}' }) : gethFilterCriteria.decode(options);
  } catch (err) {
    if (err instanceof ParamDecodeError) throw new ServerError(`invalid argument 1: ${err.message}`);
    throw err;
  }
  return subscribe(session, 'logs', criteria);
}

export function ethUnsubscribe([id]: [string], ctx: RpcContext): boolean {
  const session = ctx.session;
  if (session === undefined) throw new SubscriptionError('notifications not supported');
  // rpc/subscription.go ErrSubscriptionNotFound
  if (!session.subscriptions.delete(id)) throw new ServerError('subscription not found');
  return true;
}
