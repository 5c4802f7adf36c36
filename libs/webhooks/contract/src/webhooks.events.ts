import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  event,
  eventFamily,
  NAME_PATTERN,
  OBJECT_ID_PATTERN,
  REPO_ID_PATTERN,
  REPO_TYPES,
  type RepoType,
} from '@hub/contracts';

/** `repo` of payload v3: what its consumers read is checked, the rest travels untouched. */
export class WebhookPayloadRepo {
  [key: string]: unknown;

  @IsIn(REPO_TYPES)
  type!: RepoType;

  /**
   * `owner/name`, as leniently as the released bus contract (docs/asyncapi/released.json): a
   * stricter pattern would dead-letter events other areas publish today (decision 0701).
   */
  @Matches(/^[^/\s]+\/[^/\s]+$/, { message: 'repo.name must be owner/name' })
  @IsString({ message: 'repo.name must be owner/name' })
  name!: string;

  /** Private repos reach only webhooks of owners who can see them (decision 0501). */
  @IsOptional()
  @IsBoolean()
  private?: boolean;

  /** Bytes used, when the publisher knows it (the organizations' repository catalogue reads it). */
  @IsOptional()
  @IsInt()
  @Min(0)
  storage?: number;
}

export class WebhookPayloadMovedTo {
  [key: string]: unknown;

  @Matches(REPO_ID_PATTERN, { message: 'movedTo.name must be owner/name' })
  @IsString({ message: 'movedTo.name must be owner/name' })
  name!: string;
}

export class WebhookPayloadEvent {
  [key: string]: unknown;

  @IsString()
  @MinLength(1)
  action!: string;

  @IsOptional()
  @IsString()
  scope?: string;
}

/**
 * `hub.events.repo.…` and `hub.events.discussion.…`: webhook payload v3 (architecture section 6),
 * the one reading of it for every consumer (webhooks, the organizations' catalogue: decision 0501).
 * Lenient on purpose: other areas may add members, and every member reaches the receiver as sent.
 */
export class WebhookPayloadV3 {
  [key: string]: unknown;

  @IsObject()
  @ValidateNested()
  @Type(() => WebhookPayloadRepo)
  repo!: WebhookPayloadRepo;

  @IsObject()
  @ValidateNested()
  @Type(() => WebhookPayloadEvent)
  event!: WebhookPayloadEvent;

  /** On `move` events: where the repo went. */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => WebhookPayloadMovedTo)
  movedTo?: WebhookPayloadMovedTo;
}

/** `hub.webhooks.webhook.suspended`: deliveries kept failing; the notifications service tells the owner. */
export class WebhookSuspendedEvent {
  @Matches(OBJECT_ID_PATTERN)
  webhookId!: string;

  @Matches(OBJECT_ID_PATTERN)
  ownerId!: string;

  /** The user (or organization) that owns the webhook: who is told. */
  @Matches(NAME_PATTERN)
  ownerName!: string;

  @IsOptional()
  @IsIn(['user', 'org'])
  ownerType?: 'user' | 'org';

  @IsOptional()
  @IsString()
  url?: string;

  /** Why, for people: the last failure and how long it has been failing. */
  @IsString()
  reason!: string;

  @IsISO8601()
  suspendedAt!: string;
}

export const WebhookEvents = {
  /** What webhooks consume besides `RepoEvents` (organizations' contract, repo.events.ts): one family per domain (spec 6.1). */
  Discussion: eventFamily<WebhookPayloadV3>('hub.events.discussion', WebhookPayloadV3),
  Suspended: event<WebhookSuspendedEvent>('hub.webhooks.webhook.suspended', WebhookSuspendedEvent),
} as const;
