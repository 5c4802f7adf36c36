import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, IsString, Length, Matches, Min, ValidateNested } from 'class-validator';
import { AUDIT_EVENT_TYPES, AUTHOR_TYPES, type AuditEventType, TOKEN_ROLES, type TokenRole } from '../enums';
import { OBJECT_ID_PATTERN } from '../names';
import { eventFamily } from './descriptors';
import { streamName, subject } from './prefix';

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

/**
 * The events no one feature owns: the audit events every service writes (the organizations service
 * keeps them), the hub's other areas' facts, and what any consumer dead-letters. A feature's own
 * events sit in its contract (`CredentialsEvents`, `OrganizationsEvents`, `NotificationsEvents`,
 * `JobsEvents`, `WebhookEvents`…: decision 0019).
 */
export const Events = {
  Audit: eventFamily<AuditEventMessage>('hub.audit', AuditEventMessage),
  Hub: eventFamily<HubEventPayload>('hub.events', HubEventPayload),
  DeadLetter: eventFamily<DeadLetterMessage>('hub.deadletter', DeadLetterMessage),
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
