import { CreateNotifications1764000000000 } from './1764000000000-create-notifications';
import { CreateNotificationsEmailOutbox1764000100000 } from './1764000100000-create-email-outbox';
import { InboxCounts1764000200000 } from './1764000200000-inbox-counts';
import { CreateNotificationsOutbox1764000300000 } from './1764000300000-create-outbox';
import { RetentionIndexes1797000100000 } from './1797000100000-retention-indexes';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const NOTIFICATIONS_MIGRATIONS = [
  CreateNotifications1764000000000,
  CreateNotificationsEmailOutbox1764000100000,
  InboxCounts1764000200000,
  CreateNotificationsOutbox1764000300000,
  RetentionIndexes1797000100000,
];
