// eth_subscribe / eth_unsubscribe (go-ethereum eth/filters/api.go, rpc/subscription.go): the
// subscriptions of each connection that can carry notifications (WebSocket), kept beside the
// dispatcher, capped per connection. A fixture chain never grows, so nothing is ever published on
// it; in upstream mode the server polls the node and publishes its new blocks (server/ws.ts).
import { newId } from './filters/registry.ts';
import type { FilterCriteria } from './filterParams.ts';

export type SubscriptionKind = 'newHeads' | 'logs' | 'newPendingTransactions' | 'syncing';

export interface Subscription {
  readonly id: string;
  readonly kind: SubscriptionKind;
  /** `logs` only: what the logs must match. */
  readonly criteria?: FilterCriteria | undefined;
}

/** A connection that can receive notifications (one WebSocket). */
export interface RpcSession {
  /** Sends one notification text to the client. */
  notify(text: string): void;
  readonly subscriptions: Map<string, Subscription>;
}

/** The most subscriptions one connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 1000;

export function subscribe(session: RpcSession, kind: SubscriptionKind, criteria?: FilterCriteria): string {
  let id = newId();
  while (session.subscriptions.has(id)) id = newId();
  session.subscriptions.set(id, { id, kind, criteria });
  return id;
}

/** go-ethereum's notification: `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":ID,"result":…}}`. */
export function notification(id: string, resultJson: string): string {
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":${JSON.stringify(id)},"result":${resultJson}}}`;
}
