import { type EntityManager } from 'typeorm';
import { NotificationsEvents } from '@hub/notifications-contract';
import { type Outbox } from '@hub/messaging';

/** What one `hub.notifications.inbox.changed` message lists at most (its payload's bound). */
const USERS_PER_MESSAGE = 1000;

/**
 * Says, in the transaction of a change, whose inboxes it changed: gateways drop the ETags they
 * answer polls with once the outbox has published it (decision 0402). Nothing for no user.
 */
export async function announceInboxChanges(outbox: Outbox, m: EntityManager, userIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(userIds)].sort();
  for (let i = 0; i < ids.length; i += USERS_PER_MESSAGE) {
    await outbox.add(m, NotificationsEvents.InboxChanged, { userIds: ids.slice(i, i + USERS_PER_MESSAGE) });
  }
}
