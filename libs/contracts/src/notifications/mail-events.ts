import { IsIn, IsISO8601, IsOptional, IsString, Length, Matches } from 'class-validator';
import { NAME_PATTERN, OBJECT_ID_PATTERN } from '../names';
import { event } from '../bus/descriptors';

/**
 * `hub.webhooks.webhook.suspended` (published by the webhooks service): a webhook was moved to
 * suspended-after-failure. The minimal payload notifications needs; the webhooks issue may add fields.
 */
export class WebhookSuspendedEvent {
  @Matches(OBJECT_ID_PATTERN)
  webhookId!: string;

  /** The user (or organization) that owns the webhook. */
  @Matches(NAME_PATTERN)
  ownerName!: string;

  @IsOptional() @IsIn(['user', 'org'])
  ownerType?: 'user' | 'org';

  @IsOptional() @IsString() @Length(0, 2048)
  url?: string;

  @IsOptional() @IsString() @Length(0, 1000)
  reason?: string;

  @IsISO8601()
  suspendedAt!: string;
}

export const NotificationMailEvents = {
  WebhookSuspended: event<WebhookSuspendedEvent>('hub.webhooks.webhook.suspended', WebhookSuspendedEvent),
} as const;
