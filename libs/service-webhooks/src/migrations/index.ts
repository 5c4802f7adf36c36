import { CreateWebhooks1764000000000 } from './1764000000000-create-webhooks';
import { CreateWebhooksOutbox1764000100000 } from './1764000100000-create-outbox';
import { CreateTriggerCounts1764000200000 } from './1764000200000-trigger-counts';

/** In order. Never edit one that has landed; add a new one (style.md rule 7). */
export const WEBHOOKS_MIGRATIONS = [CreateWebhooks1764000000000, CreateWebhooksOutbox1764000100000, CreateTriggerCounts1764000200000];
