import { WebhookEvents, WebhookPayloadV3 } from '../webhooks/webhook-events';

/**
 * `hub.events.repo.<…>` as the organizations' repository catalogue reads it: the webhook payload
 * v3, one class for every consumer (decision 0501), so a payload one accepts the other accepts.
 */
export type RepoEventPayload = WebhookPayloadV3;
export const RepoEventPayload = WebhookPayloadV3;

export const RepoEvents = WebhookEvents.Repo;
