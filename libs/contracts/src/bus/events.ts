import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import { AUDIT_EVENT_TYPES, AUTHOR_TYPES, type AuditEventType, TOKEN_ROLES, type TokenRole } from '../enums';
import { JobStatusEvent } from './job-events';
import { OBJECT_ID_PATTERN } from '../names';
import { event, eventFamily } from './descriptors';
import { streamName, subject } from './prefix';

/** `hub.credentials.token.revoked`: these tokens stopped working (everywhere, or in one organization). */
export class TokenRevokedEvent {
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  tokenIds!: string[];

  /** Set when the revocation is scoped to one organization only. */
  @IsOptional()
  @Matches(OBJECT_ID_PATTERN)
  organizationId?: string;

  @IsISO8601()
  revokedAt!: string;
}

/** `hub.organizations.membership.changed`: someone joined or changed role; gateways drop cached memberships. */
export class MembershipChangedEvent {
  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @IsArray()
  @Matches(OBJECT_ID_PATTERN, { each: true })
  userIds!: string[];
}

/**
 * `hub.notifications.inbox.changed`: these users' inboxes changed (a notification arrived, was
 * marked or deleted); gateways drop the ETags they keep to answer polls. At most 1,000 users per
 * message: a larger change is several messages.
 */
export class InboxChangedEvent {
  @IsArray()
  @ArrayMaxSize(1000)
  @Matches(OBJECT_ID_PATTERN, { each: true })
  userIds!: string[];
}

export class AuditAuthor {
  @IsString()
  @Length(1, 24)
  _id!: string;

  @IsString()
  user!: string;

  @IsIn(AUTHOR_TYPES)
  type!: (typeof AUTHOR_TYPES)[number];
}

export class AuditToken {
  @Matches(OBJECT_ID_PATTERN)
  id!: string;

  @IsOptional()
  @IsIn(TOKEN_ROLES)
  role?: TokenRole;
}

/** `hub.audit.<type>`: one audit event; the organizations service stores it for the org's audit log. */
export class AuditEventMessage {
  @IsIn(AUDIT_EVENT_TYPES)
  type!: AuditEventType;

  @Matches(OBJECT_ID_PATTERN)
  organizationId!: string;

  @IsString()
  organization!: string;

  @IsString()
  message!: string;

  @IsOptional()
  data?: unknown;

  @IsISO8601()
  createdAt!: string;

  @ValidateNested()
  @Type(() => AuditAuthor)
  author!: AuditAuthor;

  @IsOptional()
  @ValidateNested()
  @Type(() => AuditToken)
  token?: AuditToken;

  @IsOptional()
  @IsString()
  ip?: string;

  @IsOptional()
  @IsString()
  userAgent?: string;
}

/**
 * `hub.events.<area>.…`: facts published by the hub's other areas (repo, discussion, paper, post,
 * blog), here also by the admin API. Repo and discussion events carry the webhook payload v3; the
 * services that consume them validate the shape they need.
 */
export class HubEventPayload {
  [key: string]: unknown;
}

/**
 * `hub.deadletter.<original subject>`: an event a consumer could not take, kept for an operator
 * instead of being retried forever: its payload failed validation (`invalid`) or its handler
 * kept failing up to the consumer's bound (`failed`).
 */
export class DeadLetterMessage {
  /** The subject the event was published on. */
  @IsString()
  subject!: string;

  @IsOptional()
  @IsString()
  msgId?: string;

  @IsIn(['invalid', 'failed'])
  reason!: 'invalid' | 'failed';

  /** The validation messages, or the handler's last error message. */
  @IsString()
  error!: string;

  /** The durable consumer's name, or `listen` for a fan-out listener. */
  @IsString()
  consumer!: string;

  @IsInt()
  @Min(1)
  deliveryCount!: number;

  /** The payload as received (the raw text when it was not JSON). */
  @IsOptional()
  payload?: unknown;

  @IsISO8601()
  deadLetteredAt!: string;
}

/** Every event this project publishes or consumes, declared once with its payload class. */
export const Events = {
  TokenRevoked: event<TokenRevokedEvent>('hub.credentials.token.revoked', TokenRevokedEvent),
  MembershipChanged: event<MembershipChangedEvent>('hub.organizations.membership.changed', MembershipChangedEvent),
  Audit: eventFamily<AuditEventMessage>('hub.audit', AuditEventMessage),
  Hub: eventFamily<HubEventPayload>('hub.events', HubEventPayload),
  DeadLetter: eventFamily<DeadLetterMessage>('hub.deadletter', DeadLetterMessage),
  JobStatus: event<JobStatusEvent>('hub.jobs.job.status', JobStatusEvent),
  InboxChanged: event<InboxChangedEvent>('hub.notifications.inbox.changed', InboxChangedEvent),
} as const;

export const Streams = {
  Events: { name: streamName('HUB_EVENTS'), subjects: [subject('hub.events.>')] },
  Audit: { name: streamName('HUB_AUDIT'), subjects: [subject('hub.audit.>')] },
  Credentials: { name: streamName('HUB_CREDENTIALS'), subjects: [subject('hub.credentials.>')] },
  Organizations: { name: streamName('HUB_ORGANIZATIONS'), subjects: [subject('hub.organizations.>')] },
  Webhooks: { name: streamName('HUB_WEBHOOKS'), subjects: [subject('hub.webhooks.>')] },
  DeadLetter: { name: streamName('HUB_DEADLETTER'), subjects: [subject('hub.deadletter.>')] },
  Jobs: { name: streamName('HUB_JOBS'), subjects: [subject('hub.jobs.>')] },
  Notifications: { name: streamName('HUB_NOTIFICATIONS'), subjects: [subject('hub.notifications.>')] },
} as const;
