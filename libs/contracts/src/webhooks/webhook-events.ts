import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsObject, IsOptional, IsString, Matches, MinLength, ValidateNested } from 'class-validator';
import { event, eventFamily } from '../bus/descriptors';
import { REPO_TYPES, type RepoType } from '../enums';
import { OBJECT_ID_PATTERN } from '../names';

/** `repo` of payload v3: what matching needs is checked, the rest travels untouched. */
export class RepoEventRepo {
  [key: string]: unknown;

  @IsIn(REPO_TYPES)
  type!: RepoType;

  /** `owner/name` */
  @Matches(/^[^/\s]+\/[^/\s]+$/, { message: 'repo.name must be owner/name' })
  name!: string;
}

export class RepoEventAction {
  [key: string]: unknown;

  @IsString() @MinLength(1)
  action!: string;

  @IsOptional() @IsString()
  scope?: string;
}

/**
 * `hub.events.repo.…` and `hub.events.discussion.…`: webhook payload v3 (architecture section 6).
 * Lenient on purpose: other areas may add members, and every member reaches the receiver as sent.
 */
export class RepoEventPayload {
  [key: string]: unknown;

  @IsObject() @ValidateNested() @Type(() => RepoEventRepo)
  repo!: RepoEventRepo;

  @IsObject() @ValidateNested() @Type(() => RepoEventAction)
  event!: RepoEventAction;
}

/** `hub.webhooks.webhook.suspended`: deliveries kept failing; the notifications service tells the owner. */
export class WebhookSuspendedEvent {
  @Matches(OBJECT_ID_PATTERN)
  webhookId!: string;

  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;

  @IsOptional() @IsString()
  url?: string;

  /** Why, for people: the last failure and how long it has been failing. */
  @IsString()
  reason!: string;

  @IsISO8601()
  suspendedAt!: string;
}

export const WebhookEvents = {
  /** What webhooks consume: one family per domain (spec 6.1). */
  Repo: eventFamily<RepoEventPayload>('hub.events.repo', RepoEventPayload),
  Discussion: eventFamily<RepoEventPayload>('hub.events.discussion', RepoEventPayload),
  Suspended: event<WebhookSuspendedEvent>('hub.webhooks.webhook.suspended', WebhookSuspendedEvent),
} as const;
