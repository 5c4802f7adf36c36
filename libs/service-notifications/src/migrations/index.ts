import { CreateNotifications1764000000000 } from './1764000000000-create-notifications';
import { CreateNotificationsEmailOutbox1764000100000 } from './1764000100000-create-email-outbox';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const NOTIFICATIONS_MIGRATIONS = [CreateNotifications1764000000000, CreateNotificationsEmailOutbox1764000100000];
