import { TtlCache } from '@hub/service-gateway';

/** The validators the notifications service answered for one query of one inbox. */
export interface InboxValidators {
  etag: string;
  lastModified: string;
}

/** Queries remembered per user (a client polls one or two views of its inbox). */
const QUERIES_PER_USER = 8;

/**
 * Per user, the ETag and Last-Modified the notifications service last answered for each query,
 * so the gateway answers an unchanged poll itself (decision 0402). An entry lives until the
 * user's inbox changes (`hub.notifications.inbox.changed`, or a mark or delete through this
 * gateway) or its TTL runs out, which bounds staleness if an invalidation is lost. A reply
 * fetched while any inbox changed is not kept (the generation, as for tokens).
 */
export class InboxPollCache extends TtlCache<string, Map<string, InboxValidators>> {
  lookup(userId: string, query: string): InboxValidators | undefined {
    return this.get(userId)?.get(query);
  }

  remember(userId: string, query: string, v: InboxValidators, generation: number): void {
    if (generation !== this.generation) return;
    const known = this.get(userId);
    if (!known) {
      this.set(userId, new Map([[query, v]]));
      return;
    }
    if (!known.has(query) && known.size >= QUERIES_PER_USER) known.delete(known.keys().next().value as string);
    known.set(query, v);
  }

  /** Their inboxes changed: the next poll of each asks the service. */
  forget(userIds: Iterable<string>): void {
    for (const id of userIds) this.delete(id);
  }
}

/** The same filters in any order are one query. */
export function queryKey(filters: object): string {
  return JSON.stringify(
    Object.entries(filters)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}
